import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { noteScene, openNote, readNote } from "./support/notes.ts";
import { ORG_A, ORG_B, ORG_C, appUrl, expectAccessible, openInHost, sandbox, sandboxNotes, saveScreenshot, userWithRole } from "./support/sandbox.ts";

// The shell, the bridge and the host page, in Chromium, inside the
// cross-site iframe of the EHR host page (DESIGN.md "The host bridge").

const SENTINEL = "tandem-e2e:sentinel";

/** Requests matching `pattern` are answered `delayMs` later (a slow server, or slow code for the frame). */
async function answerLate(page: Page, pattern: string, delayMs: number): Promise<void> {
  await page.route(pattern, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    await route.fallback();
  });
}

test("the handshake succeeds and the shell shows the session, the patient and the facility clock", async ({ page }) => {
  const physician = await userWithRole(ORG_A, "Physician");
  const note = (await sandboxNotes(ORG_A)).find((candidate) => candidate.status === "awaiting_sign");
  const app = await openInHost(page, { org: ORG_A, user: physician.id, note: note?.id, patient: note?.patientId });
  await expect(app.getByTestId("signed-in-user")).toContainText(physician.displayName.split(",")[0] ?? physician.displayName);
  await expect(app.getByTestId("signed-in-user")).toContainText("Physician");
  await expect(app.getByTestId("organization-name")).toContainText("Riverside");
  await expect(app.getByTestId("patient-name")).toContainText((note?.patientName.split(" ").at(-1) ?? "").trim());
  // The facility's time on a 12-hour clock (Playwright's locale is en-US), its zone named where it differs from the browser's.
  await expect(app.getByTestId("facility-time")).toHaveText(/^\d{1,2}:\d{2} [AP]M( [A-Z]{3,5}| GMT[+-]\d{1,2}(:\d{2})?)?$/);
  await expect(app.getByRole("navigation", { name: "Tandem" }).getByRole("link", { name: "Note" })).toBeVisible();
  await saveScreenshot(page, "shell-physician");
  await expectAccessible(page);
});

test("a message from a foreign origin, or with a wrong nonce, is ignored", async ({ page }) => {
  const app = await openInHost(page, { org: ORG_A });
  await expect(app.getByTestId("organization-name")).toContainText("Riverside");
  const frame = page.frames().find((candidate) => candidate.url().startsWith(appUrl()));
  if (!frame) throw new Error("app frame not found");
  // A sentinel the host page posts after the two messages tells when the app has dispatched them
  // (each window's messages to the app arrive in order), instead of a pause (ADR 0011: no race against the wall clock).
  await frame.evaluate((sentinel) => {
    const seen = new Promise<void>((resolve) => {
      window.addEventListener("message", (event) => {
        if (event.data === sentinel) resolve();
      });
    });
    Object.assign(window, { tandemSentinelSeen: seen });
  }, SENTINEL);
  // From the app's own window (not the parent, not the host origin).
  await frame.evaluate(() => window.postMessage({ type: "tandem:context", nonce: "0".repeat(32), token: "a.b.c", context: { organizationName: "Evil Clinic" } }, "*"));
  // From the real parent, but without the handshake's nonce.
  await page.evaluate(() => {
    const iframe = document.querySelector<HTMLIFrameElement>("iframe#tandem-app");
    iframe?.contentWindow?.postMessage({ type: "tandem:context", nonce: "f".repeat(32), token: "a.b.c", context: { organizationName: "Evil Clinic" } }, "*");
  });
  await page.evaluate((sentinel) => document.querySelector<HTMLIFrameElement>("iframe#tandem-app")?.contentWindow?.postMessage(sentinel, "*"), SENTINEL);
  await frame.evaluate(async () => {
    await (window as Window & { tandemSentinelSeen?: Promise<void> }).tandemSentinelSeen;
    // Two frames on: a context the bridge had taken would have been rendered.
    await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
  });
  await expect(app.getByTestId("organization-name")).not.toContainText("Evil");
  await expect(app.getByTestId("organization-name")).toContainText("Riverside");
});

test("a context change in the host updates the patient banner without a reload", async ({ page }) => {
  const physician = await userWithRole(ORG_A, "Physician");
  const notes = await sandboxNotes(ORG_A);
  const [first, second] = [notes[0], notes.find((note) => note.patientId !== notes[0]?.patientId)];
  if (!first || !second) throw new Error("need two patients");
  const app = await openInHost(page, { org: ORG_A, user: physician.id, patient: first.patientId });
  await expect(app.getByTestId("patient-banner")).toBeVisible();
  const firstName = await app.getByTestId("patient-name").innerText();
  await app.locator("body").evaluate((body: HTMLElement) => body.setAttribute("data-loaded-once", "yes"));
  await page.locator("#host-patient").selectOption(second.patientId);
  await expect(app.getByTestId("patient-name")).not.toHaveText(firstName);
  await expect(app.locator("body")).toHaveAttribute("data-loaded-once", "yes");
});

test("org B's banner says why patient details are missing, and does not deny what the open note shows", async ({ page }) => {
  const note = (await sandboxNotes(ORG_B)).find((candidate) => candidate.status === "awaiting_sign");
  if (!note) throw new Error("org B has no note awaiting signature");
  const app = await openInHost(page, { org: ORG_B, note: note.id, patient: note.patientId });
  const banner = app.getByTestId("patient-banner");
  await expect(banner).toContainText("read:patients");
  // The note, read with its own scope, carries its patient and names them: the banner speaks only of itself.
  await expect(app.getByTestId("note-view")).toHaveAttribute("data-state", "ready", { timeout: 20_000 });
  await expect(app.getByTestId("note-view")).toContainText(note.patientName.split(" ").at(-1) ?? note.patientName);
  await expect(banner).toContainText("this bar cannot show who it is; an open note still names the patient it is for");
  await expect(banner).not.toContainText("not shown");
  await saveScreenshot(page, "shell-org-b-no-patient-scope");
  await expectAccessible(page);
});

test("an uninstalled organization shows its state, not a blank page", async ({ page }) => {
  const app = await openInHost(page, { org: ORG_C });
  await expect(app.getByRole("alert")).toContainText("Tandem is not active for this organization");
  await saveScreenshot(page, "shell-uninstalled");
  await expectAccessible(page);
});

test("Tandem uninstalled while a front desk has it open: the shell says so above the list, which stays; once reinstalled the notice goes by itself, the slot picked says Tandem is active again, and it can be held", async ({ page }) => {
  const frontDesk = await userWithRole(ORG_A, "Front Desk");
  const app = await openInHost(page, { org: ORG_A, user: frontDesk.id });
  await app.getByRole("button", { name: "Search", exact: true }).click();
  const summary = app.getByTestId("slot-summary");
  await expect(summary).toContainText("free slot");
  const { installation } = await sandbox<{ installation: { grantedPermissions: string[] } }>("POST", `/installations/${ORG_A}`, { status: "uninstalled" });
  try {
    const refused = app.getByTestId("session-refused");
    await expect(refused).toContainText("Tandem is not active for this organization", { timeout: 15_000 });
    await expect(refused).toContainText("uninstalled");
    // A slot picked now is refused where it was picked, saying the same.
    await app.getByTestId("slot-list").getByRole("button").first().click();
    await expect(app.getByText("Tandem is not active for this organization").nth(1)).toBeVisible();
    await expect(summary).toContainText("free slot");
    await saveScreenshot(page, "shell-uninstalled-while-open");
  } finally {
    await sandbox("POST", `/installations/${ORG_A}`, { status: "active", grantedPermissions: installation.grantedPermissions });
  }
  // The live events, tried again on Tandem's backoff (at most 10 s apart), find it active and read everything again.
  await expect(app.getByTestId("session-refused")).toHaveCount(0, { timeout: 20_000 });
  await expect(summary).toContainText("free slot");
  // The slot's own notice no longer says Tandem is not active: it says it is again, and the slot can be held.
  const picked = app.getByTestId("selection-panel");
  await expect(picked).toContainText("Tandem is active again");
  await expect(picked).not.toContainText("not active");
  await picked.getByRole("button", { name: "Try again" }).click();
  await expect(app.getByTestId("holds-bar")).toContainText("holding 1 slot");
});

test("Tandem uninstalled while a physician types: the save says it waits for Tandem to be active, and goes by itself once reinstalled", async ({ page }) => {
  const scene = await noteScene();
  const app = await openNote(page, scene);
  const hpi = app.getByRole("textbox", { name: "Additional HPI comments", exact: true });
  const status = app.getByTestId("save-status-bar").getByRole("status");
  const { installation } = await sandbox<{ installation: { grantedPermissions: string[] } }>("POST", `/installations/${ORG_A}`, { status: "uninstalled" });
  try {
    await expect(app.getByTestId("session-refused")).toContainText("Tandem is not active for this organization", { timeout: 15_000 });
    await hpi.click();
    await hpi.press("End");
    await hpi.pressSequentially(" Typed while Tandem was uninstalled.");
    await app.getByRole("button", { name: "Save", exact: true }).click();
    await expect(status).toHaveText("Not saved yet: Tandem is not active for this organization; your text will be saved once it is active again");
    await saveScreenshot(page, "note-uninstalled-while-typing");
  } finally {
    await sandbox("POST", `/installations/${ORG_A}`, { status: "active", grantedPermissions: installation.grantedPermissions });
  }
  // Once the live events find Tandem active again (at most 10 s apart), the save goes without a click.
  await expect(status).toHaveText(/^Saved /, { timeout: 20_000 });
  await expect(app.getByTestId("session-refused")).toHaveCount(0);
  expect((await readNote(scene.note.id)).soapNote.hpi.additionalHpiComments).toContain("Typed while Tandem was uninstalled.");
});

test("a front-desk user does not see note editing", async ({ page }) => {
  const frontDesk = await userWithRole(ORG_A, "Front Desk");
  const note = (await sandboxNotes(ORG_A))[0];
  const app = await openInHost(page, { org: ORG_A, user: frontDesk.id, note: note?.id, patient: note?.patientId });
  await expect(app.getByTestId("signed-in-user")).toContainText("Front Desk");
  const nav = app.getByRole("navigation", { name: "Tandem" });
  await expect(nav.getByRole("link", { name: "Slots" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Note" })).toHaveCount(0);
});

test("a token about to expire is refreshed without the user noticing", async ({ page }) => {
  // Tokens issued by a clock 4 min 30 s behind the BFF's expire 30 s from now.
  await sandbox("POST", "/clock", { advanceSeconds: -270 });
  try {
    const app = await openInHost(page, { org: ORG_A });
    await expect(app.getByTestId("organization-name")).toContainText("Riverside");
    await expect.poll(() => page.evaluate(() => JSON.stringify((window as unknown as { __tandemHost?: { log: unknown[] } }).__tandemHost?.log ?? [])), { timeout: 15_000 }).toContain("tandem:token-request");
    await app.getByRole("link", { name: "Availability" }).click();
    await expect(app.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(app.getByRole("alert")).toHaveCount(0);
  } finally {
    await sandbox("POST", "/clock", { advanceSeconds: 270 });
  }
});

test("every screen is accessible and fits a 360 px iframe", async ({ page }) => {
  const physician = await userWithRole(ORG_A, "Physician");
  const note = (await sandboxNotes(ORG_A)).find((candidate) => candidate.status === "awaiting_sign");
  const app = await openInHost(page, { org: ORG_A, user: physician.id, note: note?.id, patient: note?.patientId, width: "360" });
  for (const view of ["Slots", "Availability", "Note"]) {
    await app.getByRole("link", { name: view }).click();
    await expect(app.getByRole("link", { name: view })).toHaveAttribute("aria-current", "page");
    await expect(app.getByRole("heading", { level: 1 })).toBeVisible();
    const overflow = await app.locator("html").evaluate((html: HTMLElement) => html.scrollWidth - html.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await saveScreenshot(page, `view-${view.toLowerCase()}-360`);
    await expectAccessible(page);
  }
});

test("opened outside the EHR, the app says so and offers the standalone sign-in instead of a blank page", async ({ page }) => {
  await page.goto(appUrl());
  await expect(page.getByRole("heading", { name: "Sign in to Tandem" })).toBeVisible();
  await expect(page.getByText("Tandem usually opens inside your clinic's EHR")).toBeVisible();
});


test("a part of the app whose code cannot be fetched (a newer Tandem deployed since the page loaded) says so in its place; the rest works", async ({ page }) => {
  // The holds bar's code is fetched as the shell first draws; the server no longer has it.
  await page.route("**/assets/holds-bar-*.js", (route) => route.fulfill({ status: 404, body: "Not Found" }));
  const frontDesk = await userWithRole(ORG_A, "Front Desk");
  const app = await openInHost(page, { org: ORG_A, user: frontDesk.id, note: "none" });
  await app.getByRole("navigation", { name: "Tandem" }).getByRole("link", { name: "Slots" }).click();
  await expect(app.getByRole("alert").filter({ hasText: "Tandem could not load your holds" })).toBeVisible();
  await expect(app.getByRole("button", { name: "Reload Tandem" })).toBeVisible();
  await expect(app.getByRole("heading", { name: "Find a slot" })).toBeVisible();
  await expect(app.getByTestId("signed-in-user")).toBeVisible();
  await saveScreenshot(page, "shell-part-not-loaded");
});

test("a part whose code did not arrive because Tandem's server was restarting is fetched again by itself once the server answers", async ({ page }) => {
  // Found walking a restart of Tandem's server during a first load: two red notices asking for a reload stayed over the note for good.
  let tries = 0;
  await page.route("**/assets/holds-bar-*.js", (route) => {
    tries += 1;
    return tries === 1 ? route.abort("connectionrefused") : route.continue();
  });
  const frontDesk = await userWithRole(ORG_A, "Front Desk");
  const app = await openInHost(page, { org: ORG_A, user: frontDesk.id, note: "none" });
  await app.getByRole("navigation", { name: "Tandem" }).getByRole("link", { name: "Slots" }).click();
  await expect(app.getByRole("heading", { name: "Find a slot" })).toBeVisible();
  // The app's next answer from Tandem's server fetches the holds' code again: the notice goes, and a slot can be held.
  await expect.poll(() => tries).toBeGreaterThan(1);
  await expect(app.getByText("Tandem could not load your holds")).toHaveCount(0);
  await app.getByRole("button", { name: "Search", exact: true }).click();
  await app.getByTestId("slot").first().click();
  await expect(app.getByTestId("holds-bar")).toBeVisible();
});

test("the slot finder's first read failing (Tandem's server gone as the frame loads) says which system failed under the app's header, and Try again brings the form", async ({ page }) => {
  // Found walking a restart of Tandem's server during a first load: with no appointment types, the view failed to
  // draw and the router's bare "Something went wrong!" replaced the whole app, for good. The one read refused here.
  await page.route("**/api/appointment-types", (route) => route.abort("connectionrefused"));
  const frontDesk = await userWithRole(ORG_A, "Front Desk");
  const app = await openInHost(page, { org: ORG_A, user: frontDesk.id, note: "none" });
  await app.getByRole("navigation", { name: "Tandem" }).getByRole("link", { name: "Slots" }).click();
  const failed = app.getByRole("alert").filter({ hasText: "Tandem could not reach its server" });
  await expect(failed).toBeVisible({ timeout: 20_000 });
  await expect(app.getByTestId("signed-in-user")).toBeVisible();
  await expect(app.getByText(/Something went wrong|Tandem stopped showing/)).toHaveCount(0);
  await saveScreenshot(page, "slots-types-unreadable");
  await expectAccessible(page);
  await page.unroute("**/api/appointment-types");
  await failed.getByRole("button", { name: "Try again" }).click();
  await expect(app.getByRole("button", { name: "Search", exact: true })).toBeVisible();
});

test("a view whose first reads are slow shows a busy placeholder under the app's header, not an empty frame, then the view", async ({ page }) => {
  // Found walking a slow EHR at 1280 and 400 px: while the slot finder's route read what it needs, the frame stayed
  // empty (the router draws nothing for a route still loading unless told what to draw).
  await answerLate(page, "**/api/appointment-types", 4_000);
  const frontDesk = await userWithRole(ORG_A, "Front Desk");
  const app = await openInHost(page, { org: ORG_A, user: frontDesk.id, note: "none" });
  const placeholder = app.getByTestId("route-loading");
  await expect(placeholder).toBeVisible();
  await expect(placeholder).toHaveAttribute("aria-busy", "true");
  await expect(placeholder).toContainText("Loading…");
  await expect(app.getByTestId("signed-in-user")).toBeVisible();
  await saveScreenshot(page, "route-loading");
  // A screen reader is told what the placeholder waits for (axe refused the aria-label a role-less div carried).
  await expectAccessible(page);
  await expect(app.getByRole("button", { name: "Search", exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(placeholder).toHaveCount(0);
});

test("the frame is never blank while Tandem opens: a placeholder from its first paint until the note is there, its server slow or not", async ({ page }) => {
  // Found timing a boot: the frame was empty while the app's code loaded (up to a second here), and again between the
  // connection's placeholder and the view's while the note was read (0.9 s), so the EHR's panel flashed white twice.
  const physician = await userWithRole(ORG_A, "Physician");
  const note = (await sandboxNotes(ORG_A)).find((candidate) => candidate.status === "awaiting_sign");
  // Every state the frame's DOM passes through, recorded in the frame as it changes (not sampled): nothing, a busy
  // placeholder, or the note. Its document before #root is parsed is not a state.
  await page.addInitScript((appOrigin) => {
    if (location.origin !== appOrigin) return;
    const states: string[] = [];
    Object.assign(window, { tandemFrameStates: states });
    const record = () => {
      const root = document.getElementById("root");
      if (root === null) return;
      const text = root.textContent.trim();
      const state = root.querySelector('[data-testid="note-view"][data-state="ready"]') !== null ? "the note" : root.querySelector('[aria-busy="true"]') !== null ? "busy" : text === "" ? "blank" : `other: ${text.slice(0, 40)}`;
      if (state !== states.at(-1)) states.push(state);
    };
    new MutationObserver(record).observe(document, { subtree: true, childList: true, attributes: true });
  }, new URL(appUrl()).origin);
  for (const serverDelayMs of [0, 1_500]) {
    await page.unrouteAll();
    await answerLate(page, "**/api/**", serverDelayMs);
    const app = await openInHost(page, { org: ORG_A, user: physician.id, note: note?.id, patient: note?.patientId });
    await expect(app.getByTestId("note-view")).toHaveAttribute("data-state", "ready", { timeout: 20_000 });
    const frame = page.frames().find((candidate) => candidate.url().startsWith(appUrl()));
    const seen = await frame?.evaluate(() => (window as unknown as { tandemFrameStates: string[] }).tandemFrameStates);
    expect(seen, `with Tandem's server ${serverDelayMs} ms slow`).toEqual(["busy", "the note"]);
    await expect(app.getByTestId("signed-in-user")).toBeVisible();
  }
});

test("each placeholder Tandem shows while it opens tells a screen reader what it waits for", async ({ page }) => {
  // Found reading the placeholders with axe: "Opening Tandem", "Loading your session" and "Loading the note" were
  // aria-labels on divs without a role, which screen readers do not read (axe: aria-prohibited-attr, serious).
  const physician = await userWithRole(ORG_A, "Physician");
  const note = (await sandboxNotes(ORG_A)).find((candidate) => candidate.status === "awaiting_sign");
  await answerLate(page, "**/assets/index-*.js", 5_000);
  // The note is read beside the session: slower, so its own placeholder shows once the session is in.
  await answerLate(page, "**/api/session", 5_000);
  await answerLate(page, `**/api/notes/${note?.id ?? "-"}`, 10_000);
  // Not awaited: the host page's load waits for the frame's, which waits for the app's code.
  const opened = openInHost(page, { org: ORG_A, user: physician.id, note: note?.id, patient: note?.patientId });
  const app = page.frameLocator("iframe#tandem-app");
  for (const waitingFor of ["Opening Tandem…", "Loading your session…", "Loading the note…"]) {
    await expect(app.getByText(waitingFor, { exact: true }), waitingFor).toBeAttached({ timeout: 15_000 });
    await expectAccessible(page);
  }
  await opened;
  await expect(app.getByTestId("note-view")).toHaveAttribute("data-state", "ready", { timeout: 15_000 });
});
