import { type FrameLocator } from "@playwright/test";
import { addDays, weekdayOf } from "../contract/time/zoned-time.ts";
import { expect, test } from "./support/fixtures.ts";
import { ORG_A, ORG_B, expectAccessible, openInHost, saveScreenshot } from "./support/sandbox.ts";

// Issue 6 through the host page: week navigation, overlaps as summed
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
