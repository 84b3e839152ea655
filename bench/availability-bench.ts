import { pathToFileURL } from "node:url";
import { chromium } from "@playwright/test";
import { startSandboxServers } from "../e2e/support/sandbox-servers.ts";
import { percentile, round } from "./measure.ts";

// Rendering a week of availability for a facility with tens of providers
// (EMULATOR_SCALE=large), in Chromium through the host page: from pressing
// "Next week" to the new week drawn and checked against the service; and to
// its booked load drawn on the bands (GET /api/availability/load, ADR 0020).
// Then in a 400 px panel, the day layout: from pressing a day in the strip
// to that day's grids drawn. Median and p95 of 10 each.

export async function runAvailabilityBench(runs = 10): Promise<Record<string, unknown>> {
  const previousScale = process.env.EMULATOR_SCALE;
  process.env.EMULATOR_SCALE = "large";
  // Benchmarks run the browser on real time, so the sandbox starts at the real instant.
  const servers = await startSandboxServers(new Date().toISOString());
  if (previousScale === undefined) delete process.env.EMULATOR_SCALE;
  else process.env.EMULATOR_SCALE = previousScale;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic", "--disable-gpu"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${servers.emulatorUrl}/_sandbox/host`);
    const app = page.frameLocator("iframe#tandem-app");
    await app.getByRole("link", { name: "Availability" }).click();
    const week = app.getByTestId("availability-week");
    await week.and(app.locator('[data-state="ready"]')).waitFor({ timeout: 60_000 });
    const providerGrids = await app.getByTestId("availability-grid").count();
    const durations: number[] = [];
    const loadDurations: number[] = [];
    let bands = 0;
    for (let i = 0; i < runs + 1; i += 1) {
      const before = (await week.getAttribute("data-start-date")) ?? "";
      const start = performance.now();
      await app.getByTestId("week-next").click();
      await app.locator(`[data-testid="availability-week"][data-state="ready"]:not([data-start-date="${before}"])`).waitFor({ timeout: 60_000 });
      const drawn = performance.now();
      await app.locator(`[data-testid="availability-week"][data-load-state="ready"]:not([data-start-date="${before}"])`).waitFor({ timeout: 60_000 });
      if (i > 0) {
        durations.push(drawn - start);
        loadDurations.push(performance.now() - start);
      }
      bands = await app.getByTestId("availability-band").count();
    }
    const loadedBands = await app.locator('[data-testid="availability-band"][data-taken]').count();

    // The day layout in a narrow panel: each press of the next day in the strip, to that day drawn.
    await page.setViewportSize({ width: 400, height: 900 });
    await app.getByTestId("availability-layout-day").check({ force: true });
    await week.and(app.locator('[data-layout="day"]')).waitFor({ timeout: 60_000 });
    const dayDurations: number[] = [];
    const days: string[] = [];
    for (const button of await app.getByTestId("availability-day-pick").all()) days.push((await button.getAttribute("data-date")) ?? "");
    for (let i = 0; i < runs + 1; i += 1) {
      const date = days[i % days.length] ?? "";
      const start = performance.now();
      await app.locator(`[data-testid="availability-day-pick"][data-date="${date}"]`).click();
      await app.locator(`[data-testid="availability-day-pick"][data-date="${date}"][aria-pressed="true"]`).waitFor({ timeout: 60_000 });
      await app.locator(`[data-testid="availability-day"][data-date="${date}"], [data-testid="availability-day-empty"][data-date="${date}"]`).first().waitFor({ state: "attached", timeout: 60_000 });
      if (i > 0) dayDurations.push(performance.now() - start);
    }
    const figures = (values: number[]) => {
      values.sort((a, b) => a - b);
      return { medianMs: round(percentile(values, 50), 0), p95Ms: round(percentile(values, 95), 0) };
    };
    return {
      bench: "availability-week-render",
      scale: "large",
      providerGrids,
      bandsInWeek: bands,
      runs,
      ...figures(durations),
      bookedLoad: { ...figures(loadDurations), bandsWithLoad: loadedBands, note: "press Next week to the booked load drawn on the new week's bands" },
      narrowDayView: { widthPx: 400, ...figures(dayDurations), note: "press a day in the strip to that day's grids drawn" },
      note: "press Next week to the new week drawn and compared with the service's instances",
    };
  } finally {
    await browser.close();
    await servers.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runAvailabilityBench()));
}
