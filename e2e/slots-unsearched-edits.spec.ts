import type { FrameLocator } from "@playwright/test";
import { FRAME_STORAGE_GRANTED } from "./support/frame-storage.ts";
import { expect, test } from "./support/fixtures.ts";
import { savedSearch } from "./support/last-slot-search.ts";
import { LINCOLN_PARK, UPPER_WEST_SIDE, addDays, openSlotFinder, resetSandbox, resultsStatus, search, searchForm, setFilters, todayIn } from "./support/slots.ts";
import { saveScreenshot } from "./support/sandbox.ts";

// Filter edits not yet searched (nothing typed is lost): the form keeps them
// over the search they were made on, when the user goes to another view and
// back, and, where the browser grants the EHR's frame its storage, across a
// reload of the whole EHR page; the list stays the search's until Search.

test.use(FRAME_STORAGE_GRANTED);

test.beforeEach(async () => {
  await resetSandbox();
});

const lengthField = (app: FrameLocator) => searchForm(app).getByRole("textbox", { name: "Slot length (minutes)" });
const afternoons = (app: FrameLocator) => searchForm(app).getByRole("group", { name: "Times of day" }).getByRole("button", { name: "Afternoons" });
const nav = (app: FrameLocator) => app.getByRole("navigation", { name: "Tandem" });

async function expectEditsShown(app: FrameLocator, endDate: string): Promise<void> {
  await expect(searchForm(app).getByLabel("To", { exact: true })).toHaveValue(endDate);
  await expect(lengthField(app)).toHaveValue("25");
  await expect(afternoons(app)).toHaveAttribute("aria-pressed", "true");
  await expect(searchForm(app).getByRole("button", { name: /^Facilities/ })).toContainText(LINCOLN_PARK.name);
}

for (const width of [1280, 400]) {
  test(`at ${width} px, edits not searched yet are in the form again after another view and after a reload of the whole EHR page; Search runs them and they go`, async ({ page }) => {
    await page.setViewportSize({ width, height: 860 });
    const today = await todayIn(UPPER_WEST_SIDE.timezone);
    // A window of this test's own, so the search kept is this one.
    const startDate = addDays(today, width === 1280 ? 3 : 4);
    const app = await openSlotFinder(page);
    await setFilters(app, { facilities: ["Upper West Side"], startDate, endDate: addDays(startDate, 6) });
    const saved = savedSearch(page, `"startDate":"${startDate}"`);
    await search(app);
    await saved;
    const summary = (await resultsStatus(app).textContent()) ?? "";

    // Edits made, not searched.
    const editedEnd = addDays(startDate, 3);
    await setFilters(app, { facilities: ["Lincoln Park"], endDate: editedEnd });
    await lengthField(app).fill("25");
    await afternoons(app).click();

    await nav(app).getByRole("link", { name: "Availability" }).click();
    await expect(app.getByRole("heading", { name: "Availability" })).toBeVisible();
    await nav(app).getByRole("link", { name: "Slots" }).click();
    await expectEditsShown(app, editedEnd);
    await expect(resultsStatus(app)).toHaveText(summary);

    await page.reload();
    await expect(resultsStatus(app)).toHaveText(summary, { timeout: 15_000 });
    await expectEditsShown(app, editedEnd);
    await saveScreenshot(page, `slots-unsearched-edits-after-reload-${width}`);

    await search(app);
    await expect(resultsStatus(app)).toContainText("25 min each");
    await expect(resultsStatus(app)).not.toHaveText(summary);
    // Searched, they are the search now: another view and back shows them as the search, nothing more kept.
    await nav(app).getByRole("link", { name: "Availability" }).click();
    await nav(app).getByRole("link", { name: "Slots" }).click();
    await expectEditsShown(app, editedEnd);
    await expect(resultsStatus(app)).toContainText("25 min each");
    const kept = await app.locator("html").evaluate(() => Object.keys(window.sessionStorage).filter((key) => key.startsWith("tandem.slot-filter-edits.")));
    expect(kept).toEqual([]);
  });
}
