import type { FrameLocator } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { keepLastSlotSearch, savedSearch } from "./support/last-slot-search.ts";
import { expectAccessible, saveScreenshot } from "./support/sandbox.ts";
import {
  LINCOLN_PARK,
  UPPER_WEST_SIDE,
  addDays,
  appointmentType,
  everyListedSlot,
  expectEveryFilterShown,
  frontDeskSession,
  listDrawn,
  nextWeek,
  openSlotFinder,
  resetSandbox,
  resultsStatus,
  search,
  searchForm,
  setEveryFilter,
  setFilters,
  todayIn,
} from "./support/slots.ts";
import { ORG_A, userWithRole } from "./support/sandbox.ts";

// A reload of the WHOLE EHR page (issue 36 item 8): the EHR opens Tandem's
// frame at its start address and the browser gives the cross-site frame no
// storage of its own, so the slot finder opens on the user's last search as
// the BFF kept it: the same filters, order, times of day, weekdays and list,
// at 1280 and 400 px. A kept search with a window already begun or an id the
// organization does not have opens on the defaults and says which; another
// user's search is never opened.

test.beforeEach(async () => {
  await resetSandbox();
});

const nav = (app: FrameLocator) => app.getByRole("navigation", { name: "Tandem" });
const slotsTab = (app: FrameLocator) => nav(app).getByRole("link", { name: "Slots" });
const lengthField = (app: FrameLocator) => searchForm(app).getByRole("textbox", { name: "Slot length (minutes)" });
/** The frame's URL params, whatever their order. */
const frameParams = async (app: FrameLocator) => Object.fromEntries(new URLSearchParams(await app.locator("html").evaluate(() => location.search)));
const unread = (app: FrameLocator) => app.getByTestId("unread-link-filters");

for (const width of [1280, 400]) {
  test(`at ${width} px, reloading the whole EHR page opens the slot finder on the same search, list and order`, async ({ page }) => {
    await page.setViewportSize({ width, height: 860 });
    const followUp = await appointmentType("FU");
    const week = await nextWeek(UPPER_WEST_SIDE.timezone);
    const app = await openSlotFinder(page);

    await setEveryFilter(app, followUp.id, week);
    await search(app);
    const saved = savedSearch(page, '"order":"time"');
    await app.getByTestId("order-time").click();
    await expect(app.getByTestId("order-time")).toHaveAttribute("aria-pressed", "true");
    await listDrawn(app);
    await saved;

    const summary = (await resultsStatus(app).textContent()) ?? "";
    expect(summary).toMatch(/^[\d,]+ free slots?, .*, 30 min each, starting 12:00 PM–5:00 PM, Tue–Thu$/);
    // The whole list, read by scrolling: only the rows on screen are drawn, and the reload opens the frame at its top.
    const listed = await everyListedSlot(app);
    expect(listed.length).toBeGreaterThan(0);
    const params = await frameParams(app);
    expect(Object.keys(params).sort()).toEqual(["appointmentTypeId", "days", "endDate", "facilityIds", "isNewPatient", "order", "slotLengthMinutes", "startDate", "startsBefore", "startsFrom"]);

    // The whole host page: the EHR opens the frame at its start address, without the filters.
    await page.reload();
    await expect(app.getByRole("heading", { name: "Find a slot" })).toBeVisible({ timeout: 15_000 });
    await expect(resultsStatus(app)).toHaveText(summary, { timeout: 15_000 });
    await listDrawn(app);
    expect(await everyListedSlot(app)).toEqual(listed);
    expect(await frameParams(app)).toEqual(params);
    await expectEveryFilterShown(app, followUp.id, week);
    await expect(slotsTab(app)).toHaveAttribute("aria-current", "page");
    await expect(unread(app)).toHaveCount(0);
    await saveScreenshot(page, `slots-whole-page-reload-${width}`);
    await expectAccessible(page);
  });
}

test("a reload of the whole EHR page right after a search, before its save is due, still opens on that search: it is saved as the page goes", async ({ page }) => {
  const app = await openSlotFinder(page);
  await setFilters(app, { facilities: ["Lincoln Park"] });
  await search(app);
  const summary = (await resultsStatus(app).textContent()) ?? "";
  // The order changes the URL's filters, and the page is left at once: the save waits 600 ms, the reload does not.
  await app.getByTestId("order-time").click();
  await page.reload();
  await expect(resultsStatus(app)).toHaveText(summary, { timeout: 15_000 });
  await expect(app.getByTestId("order-time")).toHaveAttribute("aria-pressed", "true");
  await expect(searchForm(app).getByRole("button", { name: /^Facilities/ })).toContainText("Lincoln Park");
});

test("a search whose save could not reach Tandem's server (restarting) is saved once the server answers again: a later reload of the whole EHR page opens on it", async ({ page }) => {
  const app = await openSlotFinder(page);
  let refused = 0;
  await page.route("**/api/slots/last-search", async (route) => {
    if (route.request().method() === "PUT" && refused < 2) {
      refused += 1;
      await route.abort("connectionrefused");
    } else await route.fallback();
  });
  // A window of this test's own: the search kept before (a previous test's, sent as its page went) is never this one.
  const today = await todayIn(UPPER_WEST_SIDE.timezone);
  const startDate = addDays(today, 5);
  await setFilters(app, { facilities: ["Lincoln Park"], startDate, endDate: addDays(today, 11) });
  const saved = savedSearch(page, `"startDate":"${startDate}"`);
  await search(app);
  const summary = (await resultsStatus(app).textContent()) ?? "";
  // Sent again 1 s after the first refusal, then 2 s after the second (Tandem's backoff).
  await saved;
  expect(refused).toBe(2);
  await page.unroute("**/api/slots/last-search");

  await page.reload();
  await expect(resultsStatus(app)).toHaveText(summary, { timeout: 15_000 });
  await expect(searchForm(app).getByRole("button", { name: /^Facilities/ })).toContainText("Lincoln Park");
  await expect(searchForm(app).getByLabel("From", { exact: true })).toHaveValue(startDate);
});

test.describe("a browser whose date is not the facility's", () => {
  // Kiritimati (UTC+14) is already on the next day at the suite's instants: the kept window has not begun at the
  // facility, whose date the slot finder's defaults and checks go by, whatever the browser's own zone.
  test.use({ timezoneId: "Pacific/Kiritimati" });

  test("the slot finder opens on the last search the BFF kept, its window included, not on the defaults", async ({ page }) => {
    // The header opens on the first facility (the EHR's context names none): its date is the slot finder's today.
    const today = await todayIn(UPPER_WEST_SIDE.timezone);
    const { userId } = await frontDeskSession();
    const window = { startDate: today, endDate: addDays(today, 6) };
    await keepLastSlotSearch(ORG_A, userId, { facilityIds: LINCOLN_PARK.id, ...window });
    // As after a reload of the whole EHR page: the frame opens at its start address, without filters.
    const app = await openSlotFinder(page);
    expect(await frameParams(app)).toMatchObject({ facilityIds: LINCOLN_PARK.id, ...window });
    await expect(unread(app)).toHaveCount(0);
    await expect(searchForm(app).getByRole("button", { name: /^Facilities/ })).toContainText("Lincoln Park");
  });
});

test("a kept search whose window has begun, with another organization's appointment type, opens on the defaults and says which; another user's search is not opened", async ({ page }) => {
  const today = await todayIn(UPPER_WEST_SIDE.timezone);
  const { userId } = await frontDeskSession();
  // The defaults first, to compare with: nobody has a search kept yet.
  const defaults = await openSlotFinder(page);
  const defaultSummary = (await resultsStatus(defaults).textContent()) ?? "";

  await keepLastSlotSearch(ORG_A, userId, { appointmentTypeId: "atp_00000000000000000000000000000000", startDate: addDays(today, -3), endDate: addDays(today, 3), order: "time" });
  const scheduler = await userWithRole(ORG_A, "Scheduler");
  await keepLastSlotSearch(ORG_A, scheduler.id, { facilityIds: "1b566c2c-b5f1-4bbf-beb3-23271408baaa", slotLengthMinutes: 45 });

  await page.reload();
  const app = page.frameLocator("iframe#tandem-app");
  const notice = unread(app);
  await expect(notice).toContainText("Some of this link's filters could not be used", { timeout: 15_000 });
  for (const named of ["start date", "end date", "appointment type"]) await expect(notice).toContainText(named);
  // The defaults are searched (the first type, this facility, two weeks from today); what could be read is kept.
  // Compared without the count: a sync of the service's mirror between the two reads may change what is free.
  const withoutCount = (summary: string) => summary.replace(/^[\d,]+ free slots?, /, "");
  await expect(resultsStatus(app)).toHaveText(/^[\d,]+ free slots?, /);
  expect(withoutCount((await resultsStatus(app).textContent()) ?? "")).toBe(withoutCount(defaultSummary));
  await expect(app.getByTestId("order-time")).toHaveAttribute("aria-pressed", "true");
  // Nothing of the scheduler's search.
  await expect(lengthField(app)).toHaveValue("");
  await expect(searchForm(app).getByRole("button", { name: /^Facilities/ })).not.toContainText("2 facilities");
  await expectAccessible(page);
});
