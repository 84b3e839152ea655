import { defineConfig } from "@playwright/test";

// e2e in Debian's Chromium (no browser download), always through the
// emulator's host page, so the app runs inside a cross-site iframe (host on
// 127.0.0.1, app on localhost). One worker on 2 cores; the global setup
// starts one emulator and BFF pair on free ports.

export default defineConfig({
  testDir: "e2e",
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  outputDir: "test-results/e2e",
  globalSetup: "./e2e/support/global-setup.ts",
  use: {
    viewport: { width: 1280, height: 860 },
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      // Without these, Chromium's background connections are refused by this machine's closed network.
      args: ["--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic", "--disable-gpu"],
    },
  },
});
