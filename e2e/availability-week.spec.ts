import { type FrameLocator, type Locator, type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { ORG_A, expectAccessible, openInHost, saveScreenshot } from "./support/sandbox.ts";

// Issue 36 items 11 and 12, for a scheduler: on a Saturday afternoon
// availability opens on the week of the next bookable band (the coming week
// where nothing of this one is left); the key says each template's hours
// as its bands do; overlapping bands show every name and time in full at
// 1280 and 400 px, and stay keyboard-navigable and axe clean.

/** Saturday 21 November 2026, 5:00 PM in New York (EST): the Saturday clinics are over; only a Sunday night band may be left this week. */
const SATURDAY_AFTERNOON = "2026-11-21T22:00:00.000Z";
test.use({ pinnedInstant: SATURDAY_AFTERNOON });

async function openAvailability(page: Page, width: number): Promise<FrameLocator> {
  await page.setViewportSize({ width, height: 860 });
  const app = await openInHost(page, { org: ORG_A });
  await app.getByRole("link", { name: "Availability" }).click();
  await expect(app.getByTestId("availability-week")).toHaveAttribute("data-state", "ready");
  return app;
}

/** Whether an element's text is all drawn inside its band: not cut sideways, not below the band's bottom edge. */
async function isFullyShown(band: Locator, testId: string): Promise<boolean> {
  return band.evaluate((button, id) => {
    const part = button.querySelector<HTMLElement>(`[data-testid="${id}"]`);
    if (!part) return false;
    const outer = button.getBoundingClientRect();
    const inner = part.getBoundingClientRect();
    return part.scrollWidth <= part.clientWidth + 1 && inner.right <= outer.right + 1 && inner.bottom <= outer.bottom + 1 && getComputedStyle(part).textOverflow !== "ellipsis";
  }, testId);
}

test("on a Saturday afternoon each facility opens on the week of its next bookable band, the coming week where this one's is over", async ({ page }) => {
  const app = await openAvailability(page, 1280);
  const week = app.getByTestId("availability-week");
  const facilities = app.locator("select#current-facility");
  const facilityIds = await facilities.locator("option").evaluateAll((options) => options.map((option) => option.getAttribute("value") ?? ""));
  const opened = new Map<string, string>();
  for (const facilityId of facilityIds) {
    await facilities.selectOption(facilityId);
    await expect(week.or(app.getByText(/No availability templates at/))).toBeVisible();
    if ((await week.count()) === 0) continue;
    await expect(week).toHaveAttribute("data-state", "ready");
    // Each provider's next band, with its offset on the facility's clock: the earliest one's local date decides the week.
    const nextStarts = await app.getByTestId("availability-next-band").evaluateAll((buttons) => buttons.map((button) => button.getAttribute("data-starts-at") ?? ""));
    const firstLocalDate = nextStarts.sort((a, b) => Date.parse(a) - Date.parse(b))[0]?.slice(0, 10) ?? "";
    const expected = firstLocalDate >= "2026-11-23" ? "2026-11-23" : "2026-11-16";
    await expect(week, `facility ${facilityId}, first band ${firstLocalDate}`).toHaveAttribute("data-start-date", expected);
    opened.set(facilityId, expected);
  }
  // At least one facility has nothing bookable left this week (the Saturday clinic ended at 1 PM): it opens on the coming week.
  expect([...opened.values()]).toContain("2026-11-23");
  const overFacility = [...opened.entries()].find((entry) => entry[1] === "2026-11-23")?.[0] ?? "";
  await facilities.selectOption(overFacility);
  await expect(week).toHaveAttribute("data-start-date", "2026-11-23");
  await expect(app.locator('[data-testid="availability-day"][data-date="2026-11-21"]')).toHaveCount(0);
  // The week almost over is one press away.
  await app.getByTestId("week-this").click();
  await expect(week).toHaveAttribute("data-start-date", "2026-11-16");
});

test("the key says each template's hours as its bands say them", async ({ page }) => {
  const app = await openAvailability(page, 1280);
  const legendHours = app.getByTestId("availability-legend-hours");
  expect(await legendHours.count()).toBeGreaterThan(0);
  // Playwright's locale is en-US: a 12-hour clock everywhere, never "08:30–12:30" in the key.
  for (const text of await legendHours.allTextContents()) expect(text).toMatch(/^\d{1,2}:\d{2} [AP]M–\d{1,2}:\d{2} [AP]M( next day)?$/);
  await expect(app.getByTestId("availability-legend-item").filter({ hasText: "Morning clinic" }).getByTestId("availability-legend-hours").first()).toHaveText(/^\d{1,2}:\d{2} AM–\d{1,2}:\d{2} PM$/);
  let compared = 0;
  for (const grid of await app.getByTestId("availability-grid").all()) {
    for (const item of await grid.getByTestId("availability-legend-item").all()) {
      const hours = (await item.getByTestId("availability-legend-hours").textContent()) ?? "";
      if (hours.endsWith("next day")) continue;
      const templateId = (await item.getAttribute("data-template-id")) ?? "";
      const bandTimes = grid.locator(`[data-testid="availability-band"][data-template-id="${templateId}"] [data-testid="availability-band-time"]`);
      for (const text of await bandTimes.allTextContents()) {
        expect(text).toBe(hours);
        compared += 1;
      }
    }
  }
  expect(compared).toBeGreaterThan(3);
});

for (const width of [1280, 400]) {
  test(`overlapping bands show every name and time in full at ${width} px, by keyboard too, axe clean`, async ({ page }) => {
    const app = await openAvailability(page, width);
    if (width < 640) {
      // A narrow panel starts on the agenda; the week grid is one choice away.
      await app.getByTestId("availability-layout-week").check({ force: true });
      await expect(app.getByTestId("availability-week")).toHaveAttribute("data-layout", "week");
    }
    const overlapping = app.locator('[data-testid="availability-band"]:not([data-lanes="1"])');
    expect(await overlapping.count()).toBeGreaterThan(1);
    for (const band of await overlapping.all()) {
      await band.scrollIntoViewIfNeeded();
      expect(await isFullyShown(band, "availability-band-name"), `name of ${await band.getAttribute("aria-label")}`).toBe(true);
      expect(await isFullyShown(band, "availability-band-time"), `time of ${await band.getAttribute("aria-label")}`).toBe(true);
    }
    // The names and times drawn are the ones in the accessible name.
    const first = overlapping.first();
    const name = (await first.getByTestId("availability-band-name").textContent()) ?? "";
    const time = (await first.getByTestId("availability-band-time").textContent()) ?? "";
    expect(await first.getAttribute("aria-label")).toContain(name.trim());
    expect(await first.getAttribute("aria-label")).toContain(time.replace(" +1", " next day"));
    // Arrow keys move between the overlapping bands of a day and on.
    await first.focus();
    const before = await first.getAttribute("data-band-key");
    await page.keyboard.press("ArrowDown");
    await expect(app.locator(":focus")).toHaveAttribute("data-testid", "availability-band");
    expect(await app.locator(":focus").getAttribute("data-band-key")).not.toBe(before);
    await page.keyboard.press("Escape");
    await saveScreenshot(page, `availability-overlap-readable-${width}`);
    await expectAccessible(page);
  });
}
