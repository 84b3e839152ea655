import { pathToFileURL } from "node:url";
import { chromium } from "@playwright/test";
import { startSandboxServers } from "../e2e/support/sandbox-servers.ts";
import { percentile, round } from "./measure.ts";

// Issue 6 figure: rendering a week of availability for a facility with about
// 50 providers (EMULATOR_SCALE=large), in Chromium through the host page:
// from pressing "Next week" to the new week drawn and checked against the
// service, median of 10.

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
    let bands = 0;
    for (let i = 0; i < runs + 1; i += 1) {
      const before = (await week.getAttribute("data-start-date")) ?? "";
      const start = performance.now();
      await app.getByTestId("week-next").click();
      await app.locator(`[data-testid="availability-week"][data-state="ready"]:not([data-start-date="${before}"])`).waitFor({ timeout: 60_000 });
      if (i > 0) durations.push(performance.now() - start);
      bands = await app.getByTestId("availability-band").count();
    }
    durations.sort((a, b) => a - b);
    return { bench: "availability-week-render", scale: "large", providerGrids, bandsInWeek: bands, runs, medianMs: round(percentile(durations, 50), 0), p95Ms: round(percentile(durations, 95), 0), note: "press Next week to the new week drawn and compared with the service's instances" };
  } finally {
    await browser.close();
    await servers.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runAvailabilityBench()));
}
