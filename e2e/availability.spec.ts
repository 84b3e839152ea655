import { type FrameLocator } from "@playwright/test";
import { addDays, weekdayOf } from "#contract/time/zoned-time.ts";
import { expect, test } from "./support/fixtures.ts";
import { ORG_A, ORG_B, expectAccessible, openInHost, resetSandbox, sandbox, saveScreenshot } from "./support/sandbox.ts";
import { bookInEhr, cancelInEhr, syncOrganization } from "./support/slots.ts";

// The availability view through the host page: week navigation, overlaps as summed
// capacity, a DST week on Lord Howe for org B, the rule in words, keyboard, axe.

async function openAvailability(page: Parameters<typeof openInHost>[0], org: string): Promise<FrameLocator> {
  const app = await openInHost(page, { org });
  await app.getByRole("link", { name: "Availability" }).click();
  await expect(app.getByTestId("availability-view")).toBeVisible();
  await expect(app.getByTestId("availability-week")).toHaveAttribute("data-state", "ready");
  return app;
}


test("pages week by week with the buttons and the N and P keys", async ({ page }) => {
  const app = await openAvailability(page, ORG_A);
  const week = app.getByTestId("availability-week");
  const start = (await week.getAttribute("data-start-date")) ?? "";
  // The templates' freshness on the facility's clock, with seconds (Playwright's locale is en-US).
  await expect(app.getByTestId("availability-freshness")).toHaveText(/^Templates as of \d{1,2}:\d{2}:\d{2} [AP]M( [A-Z]{3,5})? \((read live from|up to \d+ (s|min) behind) the EHR\)/);
  // weekdayOf: 0 is Monday.
  expect(weekdayOf(start)).toBe(0);
  await app.getByTestId("week-next").click();
  await expect(week).toHaveAttribute("data-start-date", addDays(start, 7));
  await app.getByTestId("week-previous").click();
  await expect(week).toHaveAttribute("data-start-date", start);
  await app.getByTestId("availability-view").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("n");
  await expect(week).toHaveAttribute("data-start-date", addDays(start, 7));
  await page.keyboard.press("p");
  await expect(week).toHaveAttribute("data-start-date", start);
});

test("overlapping templates stay separate bands and their capacity is summed", async ({ page }) => {
  const app = await openAvailability(page, ORG_A);
  const overlap = app.getByTestId("availability-overlap").first();
  await expect(overlap).toHaveText(/^\d+ at once: .+ \d+ \+ .+ \d+/);
  const total = Number(await overlap.getAttribute("data-total"));
  const listed = (await overlap.textContent())?.split(":")[1] ?? "";
  const parts = (listed.match(/\d+(?=\s*(\+|$))/g) ?? []).map(Number);
  expect(parts.length).toBeGreaterThan(1);
  expect(parts.reduce((sum, value) => sum + value, 0)).toBe(total);
  const startsAt = await overlap.getAttribute("data-starts-at");
  expect(await app.locator(`[data-testid="availability-band"]`).count()).toBeGreaterThan(1);
  expect(startsAt).toBeTruthy();
  await saveScreenshot(page, "availability-overlap");
  await expectAccessible(page);
});

test("org B's Lord Howe facility across 2026-10-04: a 23½-hour day, bands at their local times, agreeing with the service", async ({ page }) => {
  const app = await openAvailability(page, ORG_B);
  const facility = app.getByTestId("availability-facility");
  const lordHowe = await facility.locator("option", { hasText: "Lord Howe" }).getAttribute("value");
  await facility.selectOption(lordHowe ?? "");
  await app.getByTestId("week-date").fill("2026-10-04");
  await app.getByTestId("week-date").press("Enter");
  const week = app.getByTestId("availability-week");
  await expect(week).toHaveAttribute("data-start-date", "2026-09-28");
  await expect(week).toHaveAttribute("data-state", "ready");
  const dstDay = app.locator('[data-testid="availability-day"][data-date="2026-10-04"]');
  await expect(dstDay).toHaveAttribute("data-day-length-minutes", "1410");
  await expect(week).toContainText("23½-hour day");
  // Lord Howe's clocks go forward half an hour at 02:00, said on the locale's 12-hour clock.
  await expect(week).toContainText("Clocks go forward at 2:00 AM: 2:00 AM–2:30 AM does not happen");
  const bands = app.getByTestId("availability-band");
  expect(await bands.count()).toBeGreaterThan(0);
  // Every band's instant carries Lord Howe's offset at that time: +10:30 before the change, +11:00 after.
  for (const startsAt of await bands.evaluateAll((elements) => elements.map((element) => element.getAttribute("data-starts-at") ?? ""))) {
    expect(startsAt).toMatch(/\+1(0:30|1:00)$/);
  }
  await expect(app.getByTestId("availability-differs")).toHaveCount(0);
  // The skipped half hour is drawn where it happens, under the band that spans it: the band's own label stays on top.
  await expect(dstDay.getByTestId("availability-clock-change")).toHaveAttribute("data-kind", "gap");
  const crossing = dstDay.getByTestId("availability-band").first();
  expect(await crossing.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return element.contains(document.elementFromPoint(box.left + box.width / 2, box.top + 6));
  })).toBe(true);
  // It starts on standard time and ends on daylight time: both are named, with its real length.
  await expect(crossing).toHaveAttribute("aria-label", /1:00 AM (LHST|GMT\+10:30) – 4:00 AM (LHDT|GMT\+11), 2½ h \(clocks change\)/);
  await saveScreenshot(page, "availability-lord-howe-dst");
  await expectAccessible(page);
});

test("a band's details give the rule in words, by keyboard alone", async ({ page }) => {
  const app = await openAvailability(page, ORG_A);
  const firstBand = app.getByTestId("availability-band").first();
  await firstBand.focus();
  await page.keyboard.press("Enter");
  await expect(app.getByTestId("availability-rule").first()).toBeVisible();
  await expect(app.getByTestId("availability-rule").first()).toHaveText(/^(Every|every) /);
  await page.keyboard.press("Escape");
  await firstBand.focus();
  await page.keyboard.press("ArrowRight");
  const focusedId = await app.locator(":focus").getAttribute("data-testid");
  expect(focusedId).toBe("availability-band");
  await page.keyboard.press("Escape");
  await saveScreenshot(page, "availability-details");
});

test("fits a 360 px iframe without the page overflowing", async ({ page }) => {
  const app = await openInHost(page, { org: ORG_A, width: "360" });
  await app.getByRole("link", { name: "Availability" }).click();
  await expect(app.getByTestId("availability-week")).toHaveAttribute("data-state", "ready");
  const overflow = await app.locator("html").evaluate((html: HTMLElement) => html.scrollWidth - html.clientWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  await saveScreenshot(page, "availability-360");
  await expectAccessible(page);
});

test("a 400 px panel starts on the agenda: the week as a list by day from today, a provider's overlapping templates as one entry with their summed capacity, no sideways scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 400, height: 860 });
  const app = await openAvailability(page, ORG_A);
  const week = app.getByTestId("availability-week");
  await expect(week).toHaveAttribute("data-layout", "agenda");
  await expect(app.getByTestId("availability-agenda-day")).toHaveCount(7);
  // The pinned Tuesday: the list opens at today, Monday folded above it until asked for.
  const ahead = app.getByRole("list", { name: "Availability by day" }).getByRole("heading", { level: 3 });
  await expect(ahead.first()).toHaveText(/^Tuesday, November 17\s*Today$/);
  const past = app.getByTestId("availability-agenda-past");
  await expect(past.getByRole("heading", { level: 3 })).toBeHidden();
  await past.locator("summary").focus();
  await page.keyboard.press("Enter");
  await expect(past.getByRole("heading", { level: 3 })).toHaveText(["Monday, November 16"]);
  // Dr Brooks's Tuesday: Morning clinic (1) and Procedures (2) overlap, so up to 3 at once.
  const stacked = app.getByTestId("availability-agenda-entry").filter({ has: app.getByTestId("availability-agenda-band").nth(1) });
  expect(await stacked.count()).toBeGreaterThan(0);
  await expect(stacked.first().getByTestId("availability-agenda-peak")).toHaveText(/^up to \d+ at once$/);
  await expect(stacked.first()).toContainText(/\d+ at once/);
  const overflow = await app.locator("html").evaluate((html: HTMLElement) => html.scrollWidth - html.clientWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  await saveScreenshot(page, "availability-400-agenda");
  await expectAccessible(page);
});

test("the day layout at 400 px: one day per provider, picked from the week's days, kept in the URL", async ({ page }) => {
  await page.setViewportSize({ width: 400, height: 860 });
  const app = await openAvailability(page, ORG_A);
  await app.getByTestId("availability-layout-day").check({ force: true });
  const week = app.getByTestId("availability-week");
  await expect(week).toHaveAttribute("data-layout", "day");
  const startDate = (await week.getAttribute("data-start-date")) ?? "";
  const wednesday = addDays(startDate, 2);
  await app.locator(`[data-testid="availability-day-pick"][data-date="${wednesday}"]`).click();
  await expect(app.locator(`[data-testid="availability-day-pick"][data-date="${wednesday}"]`)).toHaveAttribute("aria-pressed", "true");
  // Every grid holds that one day, and every band starts or runs on it.
  for (const dates of await app.getByTestId("availability-day").evaluateAll((cells) => cells.map((cell) => cell.getAttribute("data-date")))) expect(dates).toBe(wednesday);
  expect(await app.getByTestId("availability-band").count()).toBeGreaterThan(0);
  const overflow = await app.locator("html").evaluate((html: HTMLElement) => html.scrollWidth - html.clientWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  // Reloading the frame keeps the layout and the day (its URL holds both).
  expect(await app.locator("html").evaluate(() => location.search)).toContain(`day=${wednesday}`);
  await app.locator("html").evaluate(() => location.reload());
  await expect(app.getByTestId("availability-week")).toHaveAttribute("data-layout", "day");
  await expect(app.locator(`[data-testid="availability-day-pick"][data-date="${wednesday}"]`)).toHaveAttribute("aria-pressed", "true");
  await saveScreenshot(page, "availability-400-day");
  await expectAccessible(page);
});

test("the agenda names both zones of a band the clocks change inside: Lord Howe, Sunday 4 October 2026", async ({ page }) => {
  const app = await openAvailability(page, ORG_B);
  await app.getByTestId("availability-layout-agenda").check({ force: true });
  const facility = app.getByTestId("availability-facility");
  const lordHowe = await facility.locator("option", { hasText: "Lord Howe" }).getAttribute("value");
  await facility.selectOption(lordHowe ?? "");
  await app.getByTestId("week-date").fill("2026-10-04");
  await app.getByTestId("week-date").press("Enter");
  await expect(app.getByTestId("availability-week")).toHaveAttribute("data-start-date", "2026-09-28");
  const sunday = app.locator('[data-testid="availability-agenda-day"][data-date="2026-10-04"]');
  await expect(sunday).toContainText("23½-hour day");
  // 01:00 standard time to 04:00 daylight time is two and a half real hours.
  await expect(sunday.getByTestId("availability-agenda-entry").first()).toContainText(/1:00 AM (LHST|GMT\+10:30) – 4:00 AM (LHDT|GMT\+11), 2½ h/);
  await saveScreenshot(page, "availability-lord-howe-agenda");
});

test("a provider's next bookable band is one click away from any week", async ({ page }) => {
  const app = await openAvailability(page, ORG_A);
  const week = app.getByTestId("availability-week");
  for (let step = 0; step < 3; step += 1) await app.getByTestId("week-previous").click();
  await expect(week).toHaveAttribute("data-state", "ready");
  const next = app.getByTestId("availability-grid").first().getByTestId("availability-next-band");
  const startsAt = (await next.getAttribute("data-starts-at")) ?? "";
  await next.click();
  // The week of that band (Monday of its local date) is shown, with the band on it.
  await expect(week).toHaveAttribute("data-state", "ready");
  const date = startsAt.slice(0, 10);
  await expect(week).toHaveAttribute("data-start-date", addDays(date, -weekdayOf(date)));
  await expect(app.locator(`[data-testid="availability-band"][data-starts-at="${startsAt}"]`).first()).toBeVisible();
});

test("the whole facility as lanes: one row per provider on a time axis, a provider's overlapping templates stacked with their summed capacity, several providers at the same hours in their own rows, every band as wide as its label, arrow keys between bands", async ({ page }) => {
  const app = await openAvailability(page, ORG_A);
  await app.getByTestId("availability-view-facility").check({ force: true });
  const lanes = app.getByTestId("availability-lanes");
  await expect(lanes).toBeVisible();
  const rows = app.getByTestId("availability-lane");
  expect(await rows.count()).toBeGreaterThan(1);
  const providerIds = await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute("data-provider-id")));
  expect(new Set(providerIds).size).toBe(providerIds.length);
  // Dr Brooks's Tuesday: Morning clinic and Procedures overlap, one stack, "up to 3 at once".
  const stack = app.getByTestId("availability-lane-stack").first();
  await expect(stack.getByTestId("availability-lane-peak")).toHaveText(/^up to \d+ at once$/);
  expect(await stack.getByTestId("availability-band").count()).toBeGreaterThan(1);
  // Several providers have overlapping templates of their own: each stacks in its own lane, with its own peak.
  const stackedLanes = await rows.evaluateAll((elements) =>
    elements
      .filter((row) => row.querySelector('[data-testid="availability-lane-stack"]') !== null)
      .map((row) => [...row.querySelectorAll('[data-testid="availability-lane-stack"]')].every((each) => each.querySelectorAll('[data-testid="availability-band"]').length > 1 && /^up to \d+ at once$/.test(each.querySelector('[data-testid="availability-lane-peak"]')?.textContent ?? ""))),
  );
  expect(stackedLanes.length).toBeGreaterThanOrEqual(2);
  expect(stackedLanes.every(Boolean)).toBe(true);
  // A time axis under each day's heading; each cell draws its provider's bands on it, so several
  // providers' templates at the same hours sit in their own rows, one above the other, never squeezed.
  await expect(lanes.getByTestId("availability-lane-axis")).toHaveCount(7);
  const sharedHours = await rows.evaluateAll((elements) => {
    const barsOf = (row: Element, day: number) =>
      [...(row.querySelectorAll("td")[day]?.querySelectorAll('[data-testid="availability-lane-bar"]') ?? [])].map((bar) => {
        const style = (bar as HTMLElement).style;
        return [parseFloat(style.left), parseFloat(style.left) + parseFloat(style.width)] as const;
      });
    let pairs = 0;
    for (let day = 0; day < 7; day += 1) {
      const perRow = elements.map((row) => barsOf(row, day));
      perRow.forEach((bars, index) => perRow.slice(index + 1).forEach((others) => (pairs += bars.some(([from, to]) => others.some(([otherFrom, otherTo]) => from < otherTo && otherFrom < to)) ? 1 : 0)));
    }
    return pairs;
  });
  expect(sharedHours).toBeGreaterThan(0);
  // No band narrower than its label: nothing is cut off.
  const clipped = await lanes.getByTestId("availability-band").evaluateAll((bands) => bands.filter((band) => band.scrollWidth > band.clientWidth + 1).length);
  expect(clipped).toBe(0);
  const first = lanes.getByTestId("availability-band").first();
  await first.focus();
  await page.keyboard.press("ArrowDown");
  const focused = await lanes.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.bandKey ?? null);
  expect(focused).not.toBeNull();
  expect(focused).not.toBe(await first.getAttribute("data-band-key"));
  await saveScreenshot(page, "availability-facility-lanes");
  await expectAccessible(page);
});

test.describe("the booked load", () => {
  test.afterEach(async () => {
    await resetSandbox();
  });

  test("a band's fill counts an EHR booking once the service has it, and drops it after the cancellation's live event", async ({ page }) => {
    const app = await openAvailability(page, ORG_A);
    await app.getByTestId("availability-view-facility").check({ force: true });
    await app.getByTestId("week-next").click();
    await expect(app.getByTestId("availability-week")).toHaveAttribute("data-state", "ready");
    await expect(app.getByTestId("availability-load-freshness")).toBeVisible();
    // A band with nothing taken yet, so its first position has a place for the booking.
    const lane = app.getByTestId("availability-lane").filter({ has: app.locator('[data-testid="availability-load"][data-taken="0"]') }).first();
    const chosen = lane.getByTestId("availability-band").filter({ has: app.locator('[data-testid="availability-load"][data-taken="0"]') }).first();
    // Held by its key from here on: the filter above stops matching once the band fills.
    const chip = app.locator(`[data-testid="availability-band"][data-band-key="${await chosen.getAttribute("data-band-key")}"]`);
    const fill = chip.getByTestId("availability-load");
    const before = Number(await fill.getAttribute("data-taken"));
    const capacity = Number(await fill.getAttribute("data-capacity"));
    expect(capacity).toBeGreaterThan(0);
    const startsAt = (await chip.getAttribute("data-starts-at")) ?? "";
    const providerId = (await lane.getAttribute("data-provider-id")) ?? "";
    const facilityId = await app.getByTestId("availability-facility").inputValue();
    // Five minutes at the band's start: one slot position, one place.
    const [appointmentId] = await bookInEhr({ providerId, facilityId, startsAt, endsAt: new Date(Date.parse(startsAt) + 5 * 60_000).toISOString() });
    await syncOrganization(ORG_A);
    await expect(fill).toHaveAttribute("data-taken", String(before + 1));
    await expect(fill).toContainText(`${before + 1} of ${capacity} taken`);
    await saveScreenshot(page, "availability-booked-fill");
    await cancelInEhr(appointmentId ?? "");
    await syncOrganization(ORG_A);
    await expect(fill).toHaveAttribute("data-taken", String(before));
  });
});

test("Sydney across 2026-10-04: the skipped hour falls outside the hours shown, so the day's heading says it and no mark is drawn over the grid", async ({ page }) => {
  const app = await openAvailability(page, ORG_B);
  const facility = app.getByTestId("availability-facility");
  const sydney = await facility.locator("option", { hasText: "Sydney" }).first().getAttribute("value");
  await facility.selectOption(sydney ?? "");
  await app.getByTestId("week-date").fill("2026-10-04");
  await app.getByTestId("week-date").press("Enter");
  const week = app.getByTestId("availability-week");
  await expect(week).toHaveAttribute("data-start-date", "2026-09-28");
  await expect(week).toHaveAttribute("data-state", "ready");
  const sunday = app.locator('[data-testid="availability-day"][data-date="2026-10-04"]').first();
  await expect(sunday).toHaveAttribute("data-day-length-minutes", "1380");
  await expect(week).toContainText("23-hour day");
  await expect(week.getByTestId("availability-clock-change")).toHaveCount(0);
  await app.getByTestId("availability-layout-agenda").check({ force: true });
  await expect(app.locator('[data-testid="availability-agenda-day"][data-date="2026-10-04"]')).toContainText("Clocks go forward at 2:00 AM: 2:00 AM–3:00 AM does not happen");
  await saveScreenshot(page, "availability-sydney-dst");
});

test("a week the service could not answer (503) says so with Try again, and does not call the providers with templates 0", async ({ page }) => {
  const app = await openAvailability(page, ORG_A);
  const week = app.getByTestId("availability-week");
  const start = (await week.getAttribute("data-start-date")) ?? "";
  // Far enough ahead that no earlier read or prefetch has it.
  await sandbox("POST", "/faults", { method: "GET", path: "/v3/schedule/availability-templates", status: 503, count: 20 });
  await app.getByLabel("Go to date").fill(addDays(start, 70));
  await expect(app.getByText("The EHR did not answer")).toBeVisible({ timeout: 20_000 });
  const providers = app.getByLabel("Provider");
  await expect(providers.locator("option").first()).toHaveText("All providers");
  await saveScreenshot(page, "availability-week-503");

  await sandbox("DELETE", "/faults");
  await app.getByRole("button", { name: "Try again" }).click();
  await expect(week).toHaveAttribute("data-state", "ready", { timeout: 20_000 });
  await expect(providers.locator("option").first()).toHaveText(/^All providers with templates here \(\d+\)$/);
});

/**
 * Opens org A's availability, makes every bookings read answer `status` until the faults are cleared (more than the
 * BFF's retries, so it gives up), and goes `daysAhead` days on, far enough that no earlier read or prefetch has the
 * week: answers the week and its bookings line once the bookings have failed.
 */
async function weekWithBookingsFailing(page: Parameters<typeof openInHost>[0], status: number, daysAhead: number) {
  const app = await openAvailability(page, ORG_A);
  const week = app.getByTestId("availability-week");
  const start = (await week.getAttribute("data-start-date")) ?? "";
  await sandbox("POST", "/faults", { method: "GET", path: "/v1/appointments", status, count: 30 });
  await app.getByLabel("Go to date").fill(addDays(start, daysAhead));
  await expect(week).toHaveAttribute("data-load-state", "error", { timeout: 20_000 });
  return { app, week, unread: app.getByTestId("availability-load-error") };
}

test("a week whose bookings the service could not answer (503) draws its bands unfilled and names the EHR, not the service's own words; Try again fills them", async ({ page }) => {
  const { app, week, unread } = await weekWithBookingsFailing(page, 503, 63);
  await expect(unread).toContainText("Bookings could not be read, so the bands show no fill. The EHR did not answer.");
  await expect(unread).not.toContainText("fault");
  await saveScreenshot(page, "availability-bookings-503");

  await sandbox("DELETE", "/faults");
  await unread.getByRole("button", { name: "Try again" }).click();
  await expect(week).toHaveAttribute("data-load-state", "ready", { timeout: 20_000 });
  await expect(app.getByTestId("availability-load-freshness")).toBeVisible();
});

test("a week whose bookings the service kept refusing (429) counts the wait down on the bookings line, never a wait already over; Try again fills the bands", async ({ page }) => {
  // Each 429 says Retry-After: 1.
  const { app, week, unread } = await weekWithBookingsFailing(page, 429, 56);
  await expect(unread).toContainText("Bookings could not be read, so the bands show no fill. The clinic data service is busy.");
  // The wait counts down to zero; the line then says the user can try again, and Try again is offered.
  await expect(unread).toContainText("You can try again now.");
  await expect(unread).not.toContainText(/Try again in \d+ seconds?\./);
  await expect(unread.getByRole("button", { name: "Try again" })).toBeEnabled();
  await saveScreenshot(page, "availability-bookings-429");

  await sandbox("DELETE", "/faults");
  await unread.getByRole("button", { name: "Try again" }).click();
  await expect(week).toHaveAttribute("data-load-state", "ready", { timeout: 20_000 });
  await expect(app.getByTestId("availability-load-freshness")).toBeVisible();
});
