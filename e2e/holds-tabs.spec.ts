import type { FrameLocator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { holdsOf } from "./support/holds.ts";
import { ORG_A, expectAccessible, sandboxNow, saveScreenshot } from "./support/sandbox.ts";
import { UPPER_WEST_SIDE, addDays, appointmentType, frontDeskSession, listedSlots, openSlotFinder, recordApiCalls, resetSandbox, search, setFilters, slotButton, todayIn } from "./support/slots.ts";

// Two tabs of one user (issue 36 item 1): a hold belongs to the user, so every
// tab lists the same holds within 2 s without a reload (the BFF tells each of
// the user's live-event streams), the user's own held slot reads "You hold
// this slot already" in the other tab, never "That time was just taken", and
// a hold ended in one tab is told in the other (item 3).

test.beforeEach(async () => {
  await resetSandbox();
});

/** A second tab of the same browser, its clock the sandbox's as the first's is (or `clockAheadMs` off it: another workstation's window). */
async function secondTab(page: Page, clockAheadMs = 0): Promise<Page> {
  const other = await page.context().newPage();
  await other.clock.install({ time: (await sandboxNow()) + clockAheadMs });
  return other;
}

/** Follow-Up slots from the day after tomorrow for 6 days: what each tab searches. */
async function followUpFilters() {
  const [fu, today] = await Promise.all([appointmentType("FU"), todayIn(UPPER_WEST_SIDE.timezone)]);
  return { typeId: fu.id, startDate: addDays(today, 2), endDate: addDays(today, 7) };
}

/** Holds the first slot listed and waits until the holds bar says so; the slot. */
async function holdFirstListed(app: FrameLocator): Promise<Awaited<ReturnType<typeof listedSlots>>[number]> {
  const [target] = await listedSlots(app);
  if (!target) throw new Error("no follow-up slot listed");
  await slotButton(app, target).click();
  await expect(app.getByTestId("holds-bar").getByTestId("hold-panel")).toHaveAttribute("data-state", "held");
  return target;
}

test("a hold made in one tab is listed in the other within 2 s; the other's click on it says it is held already, and makes no second hold; a release there reaches the first", async ({ page }) => {
  const { userId } = await frontDeskSession();
  const filters = await followUpFilters();

  const first = await openSlotFinder(page);
  await setFilters(first, filters);
  await search(first);
  const otherPage = await secondTab(page);
  const second = await openSlotFinder(otherPage);
  await setFilters(second, filters);
  await search(second);

  const target = await holdFirstListed(first);
  const firstBar = first.getByTestId("holds-bar");

  // The other tab hears of it without a reload.
  const secondBar = second.getByTestId("holds-bar");
  await expect(secondBar).toContainText("You are holding 1 slot", { timeout: 2_000 });
  await expect(secondBar.getByTestId("hold-panel")).toHaveAttribute("data-state", "held");

  // Choosing it there: the user's own, no check, no second hold.
  const calls = recordApiCalls(otherPage);
  await slotButton(second, target).click();
  const panel = second.getByTestId("selection-panel");
  await expect(panel).toHaveAttribute("data-state", "alreadyHeld");
  await expect(panel).toContainText("You hold this slot already");
  await expect(second.getByText("That time was just taken")).toHaveCount(0);
  expect(calls.filter((call) => call.method === "POST" && call.path.startsWith("/api/"))).toEqual([]);
  expect(await holdsOf(ORG_A, userId)).toHaveLength(1);
  await saveScreenshot(otherPage, "holds-tabs-already-held");
  await expectAccessible(otherPage);

  // Released in the second tab: gone from the first within 2 s, and "held already" goes with it.
  await secondBar.getByTestId("release-hold").click();
  await expect(firstBar.locator('[data-testid="hold-panel"][data-state="held"]')).toHaveCount(0, { timeout: 2_000 });
  // … and the first tab says so: the hold did not just vanish.
  await expect(firstBar.getByRole("status").filter({ hasText: "No longer held (booked or released in another tab or window)" })).toBeVisible();
  await expect(panel).toHaveCount(0);
  await expect.poll(() => holdsOf(ORG_A, userId)).toEqual([]);
  await otherPage.close();
});

test("a tab on a workstation whose clock is minutes behind counts the other tab's hold down from the same ten minutes", async ({ page }) => {
  const first = await openSlotFinder(page);
  await setFilters(first, await followUpFilters());
  await search(first);
  await holdFirstListed(first);
  await expect(first.getByTestId("holds-bar")).toContainText(/Expires in 0?9:\d\d/);

  // Another window of the user, on a clock 7 minutes behind Tandem's server: the hold has about nine and a half
  // minutes left there too, not sixteen and a half.
  const otherPage = await secondTab(page, -7 * 60_000);
  const second = await openSlotFinder(otherPage);
  const secondBar = second.getByTestId("holds-bar");
  await expect(secondBar).toContainText("You are holding 1 slot");
  await expect(secondBar).toContainText(/Expires in 0?9:\d\d/);
  await saveScreenshot(otherPage, "holds-tabs-clock-behind");
  await otherPage.close();
});
