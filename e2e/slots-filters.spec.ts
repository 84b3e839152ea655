import type { FrameLocator } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { expectAccessible, saveScreenshot } from "./support/sandbox.ts";
import { UPPER_WEST_SIDE, addDays, appointmentType, everyListedSlot, expectEveryFilterShown, listDrawn, nextWeek, openSlotFinder, resetSandbox, results, resultsStatus, sandbox, search, searchForm, setEveryFilter, setFilters, todayIn } from "./support/slots.ts";

// The slot finder's filters (issue 36 items 6 and 8), in Chromium through the
// host page: every filter in the frame's URL, so reloading the frame shows the
// same list; the Slots tab marked as the current page whatever filters the URL
// carries; a shared link with filters Tandem cannot use opens on the defaults
// and says which; a slot length far from the type's usual one warned about,
// one the service refuses stopped at the field; a window that has passed
// never searched silently; at 1280 and 400 px, axe clean.

test.beforeEach(async () => {
  await resetSandbox();
});

const nav = (app: FrameLocator) => app.getByRole("navigation", { name: "Tandem" });
const slotsTab = (app: FrameLocator) => nav(app).getByRole("link", { name: "Slots" });
const lengthField = (app: FrameLocator) => searchForm(app).getByRole("textbox", { name: "Slot length (minutes)" });
const frameSearch = (app: FrameLocator) => app.locator("html").evaluate(() => location.search);

async function noSidewaysScroll(app: FrameLocator): Promise<void> {
  expect(await app.locator("html").evaluate((html: HTMLElement) => html.scrollWidth - html.clientWidth)).toBeLessThanOrEqual(1);
}

test("reloading the frame keeps every filter, the order and the same list; the Slots tab stays the current page with filters in the URL", async ({ page }) => {
  const followUp = await appointmentType("FU");
  const week = await nextWeek(UPPER_WEST_SIDE.timezone);
  const app = await openSlotFinder(page);
  await expect(slotsTab(app)).toHaveAttribute("aria-current", "page");

  await setEveryFilter(app, followUp.id, week);
  await search(app);
  await app.getByTestId("order-time").click();
  await expect(app.getByTestId("order-time")).toHaveAttribute("aria-pressed", "true");
  await listDrawn(app);

  const summary = (await resultsStatus(app).textContent()) ?? "";
  expect(summary).toMatch(/^[\d,]+ free slots?, .*, 30 min each, starting 12:00 PM–5:00 PM, Tue–Thu$/);
  // The whole list, read by scrolling: only the rows on screen are drawn, and the order switch left the frame at the list, where a reload does not return.
  const listed = await everyListedSlot(app);
  expect(listed.length).toBeGreaterThan(0);
  const url = await frameSearch(app);
  for (const param of ["appointmentTypeId=", "facilityIds=", "startDate=", "endDate=", "slotLengthMinutes=30", "isNewPatient=true", "order=time", "startsFrom=", "startsBefore=", "days="]) expect(url).toContain(param);
  // The filters are in the URL, and the tab is still the current page.
  await expect(slotsTab(app)).toHaveAttribute("aria-current", "page");

  await app.locator("html").evaluate(() => location.reload());
  await expect(resultsStatus(app)).toHaveText(summary, { timeout: 15_000 });
  await listDrawn(app);
  expect(await everyListedSlot(app)).toEqual(listed);
  expect(await frameSearch(app)).toBe(url);
  await expectEveryFilterShown(app, followUp.id, week);
  await expect(slotsTab(app)).toHaveAttribute("aria-current", "page");
  await expect(app.getByTestId("unread-link-filters")).toHaveCount(0);
  await expectAccessible(page);
});

test("at 400 px, the filters written to the URL do not throw the frame to its top: Search stays in view while a slow search runs, and an order switch keeps the user in the list", async ({ page }) => {
  await page.setViewportSize({ width: 400, height: 860 });
  const followUp = await appointmentType("FU");
  const week = await nextWeek(UPPER_WEST_SIDE.timezone);
  const app = await openSlotFinder(page);
  const scrollTop = () => app.locator("html").evaluate(() => document.scrollingElement?.scrollTop ?? 0);
  await setFilters(app, { typeId: followUp.id, facilities: ["Upper West Side"], startDate: week.startDate, endDate: week.endDate });
  await sandbox("POST", "/faults", { method: "GET", path: "/v2/schedule/slots", latencyMs: 2_000, count: 5 });
  const searchButton = searchForm(app).getByRole("button", { name: "Search", exact: true });
  await searchButton.scrollIntoViewIfNeeded();
  await searchButton.click();
  await expect(results(app)).toHaveAttribute("aria-busy", "true");
  // Still where the user pressed it while the service is slow (the router scrolled to the top here before).
  await expect(searchButton).toBeInViewport();
  await expect(results(app)).toHaveAttribute("aria-busy", "false", { timeout: 15_000 });
  await listDrawn(app);
  await expect(resultsStatus(app)).toBeInViewport();

  // Below the long form, a switch of order keeps the user at the list.
  await app.getByTestId("order-time").scrollIntoViewIfNeeded();
  const atList = await scrollTop();
  expect(atList).toBeGreaterThan(600);
  await app.getByTestId("order-time").click();
  await expect(app.getByTestId("order-time")).toHaveAttribute("aria-pressed", "true");
  // Past the frames in which the router scrolls after a navigation.
  await app.locator("html").evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  expect(Math.abs((await scrollTop()) - atList)).toBeLessThan(100);
  await expect(app.getByTestId("order-time")).toBeInViewport();
  await saveScreenshot(page, "slots-order-switch-keeps-place-400");
});

test("a shared link with filters Tandem cannot use (no such day, a length the service refuses, another organization's type) opens on their defaults, never a crash, and says which; a search clears the message", async ({ page }) => {
  const app = await openSlotFinder(page);
  const defaultSummary = (await resultsStatus(app).textContent()) ?? "";
  await app.locator("html").evaluate(() => {
    location.assign("/slots?appointmentTypeId=atp_00000000000000000000000000000000&startDate=2026-02-31&endDate=2026-13-40&slotLengthMinutes=2&isNewPatient=perhaps&order=time");
  });
  const notice = app.getByTestId("unread-link-filters");
  await expect(notice).toContainText("Some of this link's filters could not be used", { timeout: 15_000 });
  for (const named of ["start date", "end date", "slot length (whole minutes from 5 to 480)", "new patient", "appointment type"]) await expect(notice).toContainText(named);
  // The defaults are searched (the first type, this facility, two weeks from today); what could be read is kept.
  await expect(resultsStatus(app)).toHaveText(defaultSummary);
  await expect(app.getByTestId("order-time")).toHaveAttribute("aria-pressed", "true");
  await expect(lengthField(app)).toHaveValue("");
  await expect(slotsTab(app)).toHaveAttribute("aria-current", "page");
  await expectAccessible(page);

  await search(app);
  await expect(notice).toHaveCount(0);
  expect(await frameSearch(app)).not.toContain("slotLengthMinutes=2");
});

for (const width of [1280, 400]) {
  test(`the slot length at ${width} px: a length far from the type's usual one is warned about and searched (the summary says it), one the service refuses is stopped at the field`, async ({ page }) => {
    await page.setViewportSize({ width, height: 860 });
    const followUp = await appointmentType("FU");
    const app = await openSlotFinder(page);
    await setFilters(app, { typeId: followUp.id, isNewPatient: false });

    await lengthField(app).fill("7");
    const warning = searchForm(app).getByTestId("slot-length-warning");
    await expect(warning).toHaveText("7 min is under half the Follow-Up Visit's usual 20 min: check the visit fits.");
    await search(app);
    await expect(resultsStatus(app)).toHaveText(/^[\d,]+ free slots?, .*, 7 min each$/);
    await expect(lengthField(app)).toHaveValue("7");
    await expect(warning).toBeVisible();
    await noSidewaysScroll(app);
    await saveScreenshot(page, `slots-length-warning-${width}`);
    await expectAccessible(page);

    const searched = await resultsStatus(app).textContent();
    await lengthField(app).fill("2");
    await searchForm(app).getByRole("button", { name: "Search", exact: true }).click();
    await expect(searchForm(app).getByText("Slot length must be whole minutes from 5 to 480 (what the EHR accepts), or empty for the type's default.")).toBeVisible();
    await expect(lengthField(app)).toHaveAttribute("aria-invalid", "true");
    await expect(lengthField(app)).toHaveAccessibleDescription(/Slot length must be whole minutes from 5 to 480/);
    // Not searched: the list is still the 7-minute one.
    await expect(resultsStatus(app)).toHaveText(searched ?? "");
    expect(await frameSearch(app)).toContain("slotLengthMinutes=7");
    await noSidewaysScroll(app);
    await saveScreenshot(page, `slots-length-refused-${width}`);
    await expectAccessible(page);
  });
}


test("on a short frame at 400 px the facility and provider pickers fit on screen: their lists scroll inside them and Done stays on screen and closes them", async ({ page }) => {
  // The host page's own bar takes about 250 px at this width: the frame is about 450 px tall.
  await page.setViewportSize({ width: 400, height: 700 });
  const app = await openSlotFinder(page);
  for (const [trigger, dialog] of [
    [/^Facilities/, "Choose facilities"],
    [/^Providers/, "Choose providers"],
  ] as const) {
    await searchForm(app).getByRole("button", { name: trigger }).click();
    const popover = app.getByRole("dialog", { name: dialog });
    await expect(popover).toBeVisible();
    const fits = await popover.evaluate((element: HTMLElement) => {
      const box = element.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    });
    expect(fits, `${dialog} inside the frame`).toBe(true);
    await saveScreenshot(page, `slots-picker-short-frame-${dialog.split(" ")[1]}`);
    // A plain click: nothing covers it and it needs no scrolling of the page.
    await popover.getByRole("button", { name: "Done" }).click({ timeout: 5_000 });
    await expect(popover).toBeHidden();
  }
  await expectAccessible(page);
});

test("a link whose dates have passed searches today's window and says which dates had passed; a past start typed in the form is stopped at the field", async ({ page }) => {
  const today = await todayIn(UPPER_WEST_SIDE.timezone);
  const app = await openSlotFinder(page);
  const defaultSummary = (await resultsStatus(app).textContent()) ?? "";
  // The default search, as a link kept from a week and a half ago.
  const lastWeek = { startDate: addDays(today, -9), endDate: addDays(today, -3) };
  await app.locator("html").evaluate((html, window) => location.assign(`/slots?startDate=${window.startDate}&endDate=${window.endDate}`), lastWeek);
  const notice = app.getByTestId("past-link-window");
  await expect(notice).toContainText("This link's dates have passed", { timeout: 15_000 });
  await expect(notice).toContainText("Times gone by cannot be held, so the search below starts today");
  await expect(resultsStatus(app)).toHaveText(defaultSummary);
  await expect(searchForm(app).getByLabel("From", { exact: true })).toHaveValue(today);
  await expectAccessible(page);

  for (const width of [1280, 400]) {
    await page.setViewportSize({ width, height: 860 });
    await setFilters(app, { startDate: addDays(today, -1) });
    await searchForm(app).getByRole("button", { name: "Search", exact: true }).click();
    const from = searchForm(app).getByLabel("From", { exact: true });
    await expect(from).toHaveAttribute("aria-invalid", "true");
    await expect(from).toHaveAccessibleDescription("The start date has passed: choose today or a later date (times gone by cannot be held).");
    // Not searched: the list is still today's.
    await expect(resultsStatus(app)).toHaveText(defaultSummary);
    await noSidewaysScroll(app);
    await saveScreenshot(page, `slots-past-start-${width}`);
    await expectAccessible(page);
    await from.fill(today);
  }
  await search(app);
  await expect(notice).toHaveCount(0);
  expect(await frameSearch(app)).toContain(`startDate=${today}`);
});
