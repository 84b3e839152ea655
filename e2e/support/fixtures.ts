import { expect, test as base, type Page } from "@playwright/test";
import { releaseEveryHold } from "./holds.ts";
import { forgetKeptLastSlotSearches, recordLastSlotSearchSaves } from "./last-slot-search.ts";
import { PINNED_INSTANTS } from "./pinned-instants.ts";
import { sandboxNow } from "./sandbox.ts";
import { startSandboxServers, type SandboxServers } from "./sandbox-servers.ts";

export { expect };

// Every spec's `test`: one emulator and BFF pair per worker, pinned to the
// project's instant (playwright.config.ts), and a browser whose clock is the
// emulator's (Playwright's clock API, running at normal speed from there), so
// no test reads the wall clock, whatever the hour or the day it runs on.

export interface PinnedClockOptions {
  /** The instant the sandbox (emulator, BFF, browser) starts at. */
  pinnedInstant: string;
}

interface WorkerFixtures {
  sandboxServers: SandboxServers;
}

/** Tandem's frame reporting that its CSP refused something: a part of the app not working as written (a style, a script). */
function recordPolicyViolations(page: Page): string[] {
  const violations: string[] = [];
  page.context().on("console", (message) => {
    const appUrl = process.env.E2E_APP_URL;
    if (message.type() === "error" && message.text().includes("Content Security Policy") && appUrl !== undefined && message.location().url.startsWith(appUrl)) {
      violations.push(`${message.location().url}: ${message.text()}`);
    }
  });
  return violations;
}

export const test = base.extend<object, PinnedClockOptions & WorkerFixtures>({
  pinnedInstant: [PINNED_INSTANTS.earlyMorning, { scope: "worker", option: true }],
  sandboxServers: [
    async ({ pinnedInstant }, use) => {
      const servers = await startSandboxServers(pinnedInstant);
      // The helpers in support/ read the servers' URLs from the worker's environment.
      process.env.E2E_EMULATOR_URL = servers.emulatorUrl;
      process.env.E2E_APP_URL = servers.appUrl;
      await use(servers);
      await servers.stop();
    },
    { scope: "worker", auto: true, timeout: 120_000 },
  ],
  page: async ({ page }, use) => {
    await page.clock.install({ time: await sandboxNow() });
    // A save the previous test's app sent as it closed.
    await forgetKeptLastSlotSearches("before the next");
    recordLastSlotSearchSaves(page);
    const policyViolations = recordPolicyViolations(page);
    await use(page);
    // Holds and last slot searches outlast a test in the worker's BFF: none may leak into the next one. The page is
    // closed first (every tab of the context), so a save sent as it goes (pagehide) is sent while the context reports it.
    for (const tab of page.context().pages()) await tab.close();
    await releaseEveryHold();
    await forgetKeptLastSlotSearches("after the test");
    expect(policyViolations, "Tandem's Content Security Policy refused something in the page").toEqual([]);
  },
});
