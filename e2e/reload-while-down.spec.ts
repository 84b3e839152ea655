import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { FRAME_STORAGE_GRANTED } from "./support/frame-storage.ts";
import { ORG_A, expectAccessible, openInHost, saveScreenshot } from "./support/sandbox.ts";
import { noteScene, openNote } from "./support/notes.ts";
import { startOwnServers, type OwnServers } from "./support/sandbox-servers.ts";
import { signInOutsideEhr } from "./support/standalone.ts";
import { UPPER_WEST_SIDE, addDays, appointmentType, openSlotFinder, resetSandbox, resultsStatus, search, searchForm, setFilters, todayIn } from "./support/slots.ts";

// The app reloaded while Tandem's server is down (a restart, a deploy): the
// frame opens the app from the shell its service worker keeps
// (src/offline/), not the browser's error page. The app says Tandem's
// server is not answering and connects by itself once it answers, without
// another reload. A view whose read failed while it was down (no reload)
// reads again by itself once it answers. A browser that denies the EHR's
// cross-site frame its storage (this Chromium by default: third-party cookie
// phase-out) refuses the worker too, and shows its error page as before:
// this spec runs with the frame's storage granted, as note-restart.spec.ts
// does.

test.use(FRAME_STORAGE_GRANTED);

/** The app's frame is controlled by the shell worker, and the page it keeps is kept. */
async function expectShellKept(page: Page): Promise<void> {
  await expect
    .poll(
      async () => {
        const frame = page.frames().find((candidate) => candidate.url().startsWith(process.env.E2E_APP_URL ?? "-"));
        return frame?.evaluate(async () => navigator.serviceWorker.controller !== null && (await caches.match("/")) !== undefined) ?? false;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
}

test.describe("a reload while Tandem's server is down", () => {
  let servers: OwnServers | null = null;

  test.beforeAll(async ({ pinnedInstant }) => {
    servers = await startOwnServers(pinnedInstant, { bffEnv: { DATA_DIR: join(mkdtempSync(join(tmpdir(), "tandem-e2e-reload-down-")), "pglite") } });
  });

  test.afterAll(async () => {
    await servers?.release();
  });

  test("opens the kept app, which says Tandem's server is not answering and connects by itself once it is back", async ({ page }) => {
    const bff = servers;
    if (!bff) throw new Error("no servers");
    await resetSandbox();
    const followUp = await appointmentType("FU");
    const today = await todayIn(UPPER_WEST_SIDE.timezone);
    const app = await openSlotFinder(page);
    await expectShellKept(page);

    await bff.stopBff("SIGKILL");
    const notice = app.getByRole("status").filter({ hasText: "Tandem's server is not answering" });
    try {
      await page.locator("#host-reload").click();
      await expect(notice).toBeVisible({ timeout: 15_000 });
      await expect(notice).toContainText("Tandem opens here by itself as soon as its server answers");
      await saveScreenshot(page, "reload-while-down-1280");
      await page.setViewportSize({ width: 400, height: 860 });
      await expect(notice).toBeVisible();
      await saveScreenshot(page, "reload-while-down-400");
      await expectAccessible(page);
      await page.setViewportSize({ width: 1280, height: 860 });
    } finally {
      await bff.restartBff();
    }

    // Back by itself, on Tandem's backoff: no reload.
    await expect(searchForm(app)).toBeVisible({ timeout: 30_000 });
    await expect(notice).toHaveCount(0);
    // The header's facility (Upper West Side) is the search's already: only the type and the window change.
    await setFilters(app, { typeId: followUp.id, startDate: addDays(today, 5), endDate: addDays(today, 11) });
    await search(app);
    await expect(resultsStatus(app)).toHaveText(/^[\d,]+ free slots?,/);
  });

  test("a physician's words typed just before the reload are offered back once Tandem's server is back", async ({ page }) => {
    const bff = servers;
    if (!bff) throw new Error("no servers");
    const sentence = " Numbness in the left hand since Tuesday.";
    const scene = await noteScene();
    // Leaving with unsaved text asks first: this reload is on purpose.
    page.on("dialog", (dialog) => void dialog.accept());
    let app = await openNote(page, scene);
    await expectShellKept(page);
    const field = app.getByRole("textbox", { name: "Additional HPI comments", exact: true });
    const start = await field.inputValue();
    await field.press("End");
    await field.pressSequentially(sentence);

    // Down before the draft's debounce: the words are in this tab only.
    await bff.stopBff("SIGKILL");
    try {
      await page.reload();
      app = page.frameLocator("iframe#tandem-app");
      await expect(app.getByRole("status").filter({ hasText: "Tandem's server is not answering" })).toBeVisible({ timeout: 15_000 });
      await saveScreenshot(page, "reload-while-down-note");
    } finally {
      await bff.restartBff();
    }

    await expect(app.getByTestId("note-view")).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
    const offer = app.getByTestId("draft-restore-notice");
    await expect(offer).toContainText(sentence.trim());
    await offer.getByRole("button", { name: "Restore" }).click();
    await expect(app.getByRole("textbox", { name: "Additional HPI comments", exact: true })).toHaveValue(`${start}${sentence}`);
  });

  test("a view a read failed on while Tandem's server was down reads again by itself once it is back, without a click", async ({ page }) => {
    const bff = servers;
    if (!bff) throw new Error("no servers");
    await resetSandbox();
    const app = await openInHost(page, { org: ORG_A });
    await app.getByRole("link", { name: "Availability" }).click();
    const week = app.getByTestId("availability-week");
    await expect(week).toHaveAttribute("data-state", "ready");

    await bff.stopBff("SIGKILL");
    try {
      // The next week is read while nothing answers: its error names Tandem's server.
      await app.getByTestId("week-next").click();
      await expect(app.getByText("Tandem could not reach its server")).toBeVisible({ timeout: 15_000 });
    } finally {
      await bff.restartBff();
    }

    // The live stream reopens on Tandem's backoff and reads every view again: the week arrives with no Try again.
    await expect(week).toHaveAttribute("data-state", "ready", { timeout: 20_000 });
    await expect(app.getByText("Tandem could not reach its server")).toHaveCount(0);
    await expect(app.getByTestId("availability-provider")).toContainText("All providers with templates here");
  });

  test("outside the EHR, the kept app waits for Tandem's server to check the sign-in, and opens by itself once it is back", async ({ page }) => {
    const bff = servers;
    if (!bff) throw new Error("no servers");
    await resetSandbox();
    await signInOutsideEhr(page);
    await expectShellKept(page);

    await bff.stopBff("SIGKILL");
    const notice = page.getByText("Tandem's server is not answering");
    try {
      await page.reload();
      await expect(notice).toBeVisible({ timeout: 15_000 });
      await expect(page.getByText(/Failed to fetch/)).toHaveCount(0);
      await page.setViewportSize({ width: 400, height: 860 });
      await saveScreenshot(page, "reload-while-down-standalone-400");
      await page.setViewportSize({ width: 1280, height: 860 });
    } finally {
      await bff.restartBff();
    }

    // Signed in still (the session is in the store), on Tandem's backoff: no reload.
    await expect(page.getByTestId("standalone-bar")).toContainText("Signed in outside the EHR as", { timeout: 30_000 });
    await expect(notice).toHaveCount(0);
  });

  test("outside the EHR, Sign out while Tandem's server is down says the user is still signed in; once it is back, Sign out ends the sign-in", async ({ page }) => {
    const bff = servers;
    if (!bff) throw new Error("no servers");
    await resetSandbox();
    await signInOutsideEhr(page);
    const signOut = page.getByRole("button", { name: "Sign out", exact: true });

    await bff.stopBff("SIGKILL");
    try {
      // Found walking a shared workstation's sign-out during a restart: the click did nothing and said nothing.
      await signOut.click();
      const stillSignedIn = page.getByRole("alert").filter({ hasText: "You are still signed in" });
      await expect(stillSignedIn).toContainText("Tandem's server did not answer, so your sign-in has not ended. Try Sign out again in a moment.");
      await expect(page.getByTestId("standalone-bar")).toContainText("Signed in outside the EHR as");
      // Marked while it ran, never disabled: the keyboard's place is kept for the second try.
      await expect(signOut).toBeFocused();
      await saveScreenshot(page, "sign-out-while-down");
    } finally {
      await bff.restartBff();
    }

    await signOut.click();
    await expect(page.getByRole("heading", { name: "Sign in to Tandem" })).toBeVisible();
    // Ended on Tandem's server, not only on screen.
    await page.reload();
    await expect(page.getByRole("heading", { name: "Sign in to Tandem" })).toBeVisible();
  });
});

