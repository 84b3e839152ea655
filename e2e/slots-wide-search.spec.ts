import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FrameLocator } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { expectAccessible, saveScreenshot } from "./support/sandbox.ts";
import { startOwnServers, type OwnServers } from "./support/sandbox-servers.ts";
import { LINCOLN_PARK, UPPER_WEST_SIDE, addDays, appointmentType, listedCount, openSlotFinder, resetSandbox, results, resultsStatus, sandbox, searchForm, setFilters, todayIn, upstreamSlots } from "./support/slots.ts";

// A wide search (issue 36: at a large group's scale, the first slots painted
// within 300 ms) is read in parts, earliest days first: two facilities over
// two weeks come as their first week, then their second. Seen through the
// host page with the service slowed: the first days are listed while the
// later ones load, and the list never says "no slots" for days not yet read.
// A later part that fails (the service's 503, or Tandem's server killed
// between parts) keeps the days already listed, names the failing system and
// says which days are missing; Try again completes the list, every day once,
// in order, the same slots the service has, read by the app's slot search
// worker, off the frame's main thread.

test.beforeEach(async () => {
  await resetSandbox();
});

const dayHeadings = (app: FrameLocator) => app.getByTestId("slot-list").locator("h3").allTextContents();

for (const width of [1280, 400]) {
  test(`at ${width} px, two facilities over two weeks: the first week is listed while the second loads; a failed second week keeps the first and says so; Try again completes the list`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const followUp = await appointmentType("FU");
    const today = await todayIn(UPPER_WEST_SIDE.timezone);
    // Each width its own window: the BFF's cache outlives a reset.
    const startDate = addDays(today, width === 1280 ? 3 : 4);
    const endDate = addDays(startDate, 13);
    const app = await openSlotFinder(page);
    await setFilters(app, { typeId: followUp.id, facilities: ["Upper West Side", "Lincoln Park"], startDate, endDate });

    // Each read of the service's slots takes 1.5 s, so the list is seen between its parts.
    await sandbox("POST", "/faults", { method: "GET", path: "/v2/schedule/slots", latencyMs: 1_500 });
    await searchForm(app).getByRole("button", { name: "Search", exact: true }).click();
    await expect(resultsStatus(app)).toHaveText(/^[\d,]+ free slots? so far, .*; the days to .* are loading…$/, { timeout: 15_000 });
    await expect(results(app)).toHaveAttribute("aria-busy", "true");
    await expect(app.getByTestId("slot").first()).toBeVisible();
    await expect(app.getByText("No free slots")).toHaveCount(0);
    await saveScreenshot(page, `slots-wide-search-first-days-${width}`);

    // The same first week and a day less: the first week is the BFF's kept answer, the rest is read and fails.
    await expect(results(app)).toHaveAttribute("aria-busy", "false", { timeout: 20_000 });
    await sandbox("DELETE", "/faults");
    const shorterEnd = addDays(endDate, -1);
    await sandbox("POST", "/faults", { method: "GET", path: "/v2/schedule/slots", status: 503 });
    await setFilters(app, { endDate: shorterEnd });
    await searchForm(app).getByRole("button", { name: "Search", exact: true }).click();
    await expect(resultsStatus(app)).toHaveText(/^[\d,]+ free slots?, .*; the days from .* to .* could not be loaded\.$/, { timeout: 30_000 });
    await expect(results(app).getByRole("alert").first()).toContainText(/did not answer/);
    const firstDays = await dayHeadings(app);
    expect(firstDays.length).toBeGreaterThan(0);
    await expect(app.getByTestId("slot").first()).toBeVisible();
    await saveScreenshot(page, `slots-wide-search-later-days-failed-${width}`);

    await sandbox("DELETE", "/faults");
    await results(app).getByRole("button", { name: "Try again" }).click();
    await expect(resultsStatus(app)).toHaveText(/^[\d,]+ free slots?, [^;]*$/, { timeout: 20_000 });
    await expect(results(app)).toHaveAttribute("aria-busy", "false");
    const days = await dayHeadings(app);
    expect(new Set(days).size).toBe(days.length);
    expect(days.slice(0, firstDays.length)).toEqual(firstDays);
    const upstream = await upstreamSlots({ appointmentTypeId: followUp.id, facilityIds: [UPPER_WEST_SIDE.id, LINCOLN_PARK.id], startDate, endDate: shorterEnd });
    expect(await listedCount(app)).toBe(upstream.slots.length);
    // The parts were read off the frame's main thread, by the app's slot search worker (src/api/slot-search-reader.ts).
    expect(page.workers().map((worker) => worker.url())).toContainEqual(expect.stringMatching(/\/assets\/slot-search-worker-[\w-]+\.js$/));
    await saveScreenshot(page, `slots-wide-search-whole-${width}`);
    await expectAccessible(page);
  });
}

test.describe("a wide search on a bad day", () => {
  let servers: OwnServers | null = null;

  test.beforeAll(async ({ pinnedInstant }) => {
    servers = await startOwnServers(pinnedInstant, { bffEnv: { DATA_DIR: join(mkdtempSync(join(tmpdir(), "tandem-e2e-wide-search-")), "pglite") } });
  });

  test.afterAll(async () => {
    await servers?.release();
  });

  test("Tandem's server killed between a wide search's parts: the first week stays listed, the summary names the days missing and the error names Tandem's server; once it is back, Try again completes the list", async ({ page }) => {
    const bff = servers;
    if (!bff) throw new Error("no servers");
    const followUp = await appointmentType("FU");
    const startDate = addDays(await todayIn(UPPER_WEST_SIDE.timezone), 2);
    const endDate = addDays(startDate, 13);
    const app = await openSlotFinder(page);
    await setFilters(app, { typeId: followUp.id, facilities: ["Upper West Side", "Lincoln Park"], startDate, endDate });
    await sandbox("POST", "/faults", { method: "GET", path: "/v2/schedule/slots", latencyMs: 3_000 });
    await searchForm(app).getByRole("button", { name: "Search", exact: true }).click();
    await expect(resultsStatus(app)).toHaveText(/ so far, /, { timeout: 15_000 });
    // The second week's read is on its way (3 s at the service): the BFF dies under it.
    await bff.stopBff("SIGKILL");
    await expect(resultsStatus(app)).toHaveText(/^[\d,]+ free slots?, .*; the days from .* could not be loaded\.$/, { timeout: 30_000 });
    await expect(results(app).getByRole("alert").first()).toContainText("Tandem could not reach its server");
    await expect(app.getByTestId("slot").first()).toBeVisible();
    await saveScreenshot(page, "slots-wide-search-bff-killed");

    await bff.restartBff();
    await sandbox("DELETE", "/faults");
    await results(app).getByRole("button", { name: "Try again" }).click();
    await expect(resultsStatus(app)).toHaveText(/^[\d,]+ free slots?, [^;]*$/, { timeout: 30_000 });
    const days = await dayHeadings(app);
    expect(new Set(days).size).toBe(days.length);
    const upstream = await upstreamSlots({ appointmentTypeId: followUp.id, facilityIds: [UPPER_WEST_SIDE.id, LINCOLN_PARK.id], startDate, endDate });
    expect(await listedCount(app)).toBe(upstream.slots.length);
  });
});
