import { defineConfig } from "@playwright/test";
import type { PinnedClockOptions } from "./e2e/support/fixtures.ts";
import { PINNED_INSTANTS } from "./e2e/support/pinned-instants.ts";

// e2e in Debian's Chromium (no browser download), always through the
// emulator's host page, so the app runs inside a cross-site iframe (host on
// 127.0.0.1, app on localhost). One worker on 2 cores; each project's worker
// starts its own emulator and BFF pair on free ports, pinned to the project's
// instant (e2e/support/fixtures.ts). No retries: a flaky test is fixed, not
// retried. The browser's locale is pinned (en-US: a 12-hour clock), so the
// times the specs read do not follow the machine's locale.

export default defineConfig<object, PinnedClockOptions>({
  testDir: "e2e",
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: 0,
  reporter: [["list"]],
  outputDir: "test-results/e2e",
  use: {
    locale: "en-US",
    viewport: { width: 1280, height: 860 },
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      // Without these, Chromium's background connections are refused by this machine's closed network.
      args: ["--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic", "--disable-gpu"],
    },
  },
  projects: [
    { name: "early-morning", use: { pinnedInstant: PINNED_INSTANTS.earlyMorning } },
    { name: "late-evening", testMatch: /slots\.spec\.ts/, use: { pinnedInstant: PINNED_INSTANTS.lateEvening } },
    { name: "dst-change-day", testMatch: /slots\.spec\.ts/, use: { pinnedInstant: PINNED_INSTANTS.dstChangeDay } },
  ],
});
