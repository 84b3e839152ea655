import { type FrameLocator, type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { clearFaults, editAsSomeoneElse, injectFault, noteScene, openNote, readNote, returnToTab, signInEhr } from "./support/notes.ts";
import { ORG_A, callApp, expectAccessible, recordApiCallsOfOpenDocuments, sandbox, sandboxNow, saveScreenshot, sandboxUsers, upstream } from "./support/sandbox.ts";

// Note editing (ADR 0008) through the host page, as a physician meets it: edit, survive an
// injected EHR failure and a reload without losing a word, the note signed
// while editing, someone else's edit, a task with two assignees, an image
// deleted, the sign-off panel, keyboard and axe. The emulator is reset before
// each test (noteScene).

const HPI_TEXT = "Rash spread to the left forearm over three days; itching worse at night.";
const EXAM_TEXT = "Erythematous plaques on the left forearm, no vesicles, no warmth.";
const PLAN_TEXT = "Start topical steroid; review in two weeks.";

/** "Saved 9:40 AM" on the facility's clock (Playwright's locale is en-US), "Saved 9:40 AM EST" where the facility's zone differs from the browser's. */
const SAVED_AT = /Saved \d{1,2}:\d{2} [AP]M( [A-Z]{3,5})?$/;
const statusOf = (app: FrameLocator) => app.getByTestId("save-status-bar").getByRole("status");
const saveButton = (app: FrameLocator) => app.getByTestId("save-status-bar").getByRole("button", { name: "Save", exact: true });

/** Leaving with unsaved text asks first; the tests that reload on purpose say yes. */
function acceptLeaving(page: Page): void {
  page.on("dialog", (dialog) => void dialog.accept());
}

test("a physician edits two fields, survives an EHR failure and a reload without losing a word, and saves", async ({ page }) => {
  const scene = await noteScene();
  const before = await readNote(scene.note.id);
  acceptLeaving(page);
  let app = await openNote(page, scene);
  await expect(statusOf(app)).toHaveText(/No unsaved changes$/);

  await injectFault("PATCH", "/v1/notes/{noteId}", { code: "server_unresponsive", count: 20 });
  await app.getByRole("textbox", { name: "Additional HPI comments", exact: true }).fill(HPI_TEXT);
  await app.getByRole("textbox", { name: "Other exam comments", exact: true }).fill(EXAM_TEXT);
  await expect(statusOf(app)).toHaveText(/Unsaved changes$/);
  await saveButton(app).click();
  // The EHR failed after the save was sent: it may have taken it (issue 35 item 4), so not "not saved".
  await expect(statusOf(app)).toHaveText(/Not confirmed: the EHR did not confirm the save, so your text may be saved already; Tandem tries again in \d+ seconds$/);
  await expect(app.getByText("Draft kept", { exact: true })).toBeVisible();
  await expect(app.getByRole("textbox", { name: "Additional HPI comments", exact: true })).toHaveValue(HPI_TEXT);
  await saveScreenshot(page, "note-save-failed");
  expect((await readNote(scene.note.id)).soapNote.hpi.additionalHpiComments).toBe(before.soapNote.hpi.additionalHpiComments);

  await page.reload();
  app = page.frameLocator("iframe#tandem-app");
  await expect(app.getByTestId("note-view")).toHaveAttribute("data-state", "ready", { timeout: 20_000 });
  const offer = app.getByTestId("draft-restore-notice");
  await expect(offer).toContainText(HPI_TEXT);
  await expect(offer).toContainText(EXAM_TEXT);
  await saveScreenshot(page, "note-draft-offered");

  await clearFaults();
  await offer.getByRole("button", { name: "Restore" }).click();
  await expect(app.getByRole("textbox", { name: "Additional HPI comments", exact: true })).toHaveValue(HPI_TEXT);
  await expect(app.getByRole("textbox", { name: "Other exam comments", exact: true })).toHaveValue(EXAM_TEXT);
  await saveButton(app).click();
  await expect(statusOf(app)).toHaveText(SAVED_AT);

  const after = await readNote(scene.note.id);
  expect(after.soapNote.hpi.additionalHpiComments).toBe(HPI_TEXT);
  expect(after.soapNote.exam.otherExamComments).toBe(EXAM_TEXT);
  expect(after.soapNote.impressionsPlansComments).toBe(before.soapNote.impressionsPlansComments);
  expect(after.soapNote.stickyNote.description).toBe(before.soapNote.stickyNote.description);

  // Nothing is offered again: the BFF dropped the draft once the EHR confirmed.
  await page.reload();
  app = page.frameLocator("iframe#tandem-app");
  await expect(app.getByTestId("note-view")).toHaveAttribute("data-state", "ready", { timeout: 20_000 });
  await expect(app.getByRole("textbox", { name: "Additional HPI comments", exact: true })).toHaveValue(HPI_TEXT);
  await expect(app.getByTestId("draft-restore-notice")).toHaveCount(0);
});

test("two tabs of one physician typing in different fields both keep their text in Tandem; a tab letting go of its field drops nothing of the other's, and a reload offers what is left", async ({ page }) => {
  const scene = await noteScene();
  const before = await readNote(scene.note.id);
  const storedDraft = async () =>
    ((await callApp("GET", `/api/notes/${scene.note.id}/draft`, { organizationId: ORG_A, userId: scene.physician.id, noteId: scene.note.id })) as { draft: { fields: Record<string, string> } | null }).draft
      ?.fields ?? null;
  // The EHR takes no save: all either tab has is its draft in Tandem.
  await injectFault("PATCH", "/v1/notes/{noteId}", { code: "server_unresponsive", count: 50 });
  acceptLeaving(page);
  const tabA = await openNote(page, scene);
  const other = await page.context().newPage();
  await other.clock.install({ time: await sandboxNow() });
  acceptLeaving(other);
  const tabB = await openNote(other, scene);

  await tabA.getByRole("textbox", { name: "Additional HPI comments", exact: true }).fill(HPI_TEXT);
  await expect.poll(storedDraft, { timeout: 10_000 }).toEqual({ additionalHpiComments: HPI_TEXT });
  const impressions = tabB.getByRole("textbox", { name: "Impressions and plans comments", exact: true });
  await impressions.fill(PLAN_TEXT);
  await expect.poll(storedDraft, { timeout: 10_000 }).toEqual({ additionalHpiComments: HPI_TEXT, impressionsPlansComments: PLAN_TEXT });
  // Tab B takes its text back out: only its own field goes.
  await impressions.fill(before.soapNote.impressionsPlansComments);
  await expect.poll(storedDraft, { timeout: 10_000 }).toEqual({ additionalHpiComments: HPI_TEXT });
  await other.close();

  await page.reload();
  const app = page.frameLocator("iframe#tandem-app");
  await expect(app.getByTestId("note-view")).toHaveAttribute("data-state", "ready", { timeout: 20_000 });
  const offer = app.getByTestId("draft-restore-notice");
  await expect(offer).toContainText(HPI_TEXT);
  await expect(offer).not.toContainText(PLAN_TEXT);
  await clearFaults();
  await offer.getByRole("button", { name: "Restore" }).click();
  await saveButton(app).click();
  await expect(statusOf(app)).toHaveText(SAVED_AT);
  expect((await readNote(scene.note.id)).soapNote.hpi.additionalHpiComments).toBe(HPI_TEXT);
  await expect.poll(storedDraft, { timeout: 10_000 }).toBeNull();
});

test("text typed while Tandem's server takes no writes is said to be on screen only, at 400 px, until it is kept and saved by itself", async ({ page }) => {
  const scene = await noteScene();
  await page.setViewportSize({ width: 400, height: 860 });
  const app = await openNote(page, scene);
  // Tandem's server does not answer the note's writes (its draft and its save); this Chromium denies the EHR's
  // cross-site frame its sessionStorage (note-restart.spec.ts), so the tab cannot keep the text either.
  const notePaths = `**/api/notes/${scene.note.id}**`;
  await page.route(notePaths, (route) => (route.request().method() === "GET" ? route.continue() : route.abort("connectionrefused")));
  await app.getByRole("textbox", { name: "Additional HPI comments", exact: true }).fill(HPI_TEXT);
  const unkept = app.getByTestId("save-status-bar").getByTestId("draft-unkept");
  await expect(unkept).toHaveText("Draft not kept: Tandem's server did not answer. Keep this page open; it is sent again by itself.");
  await expect(app.getByText("Draft kept", { exact: true })).toHaveCount(0);
  await saveScreenshot(page, "note-draft-unkept-400");
  await expectAccessible(page);

  // Back: the text is kept and saved by itself, and the bar no longer says it is on screen only.
  await page.unroute(notePaths);
  await expect(statusOf(app)).toHaveText(SAVED_AT, { timeout: 30_000 });
  await expect(unkept).toHaveText("");
  expect((await readNote(scene.note.id)).soapNote.hpi.additionalHpiComments).toBe(HPI_TEXT);
});

test("Retry saves after an integration error, and autosave saves without a click", async ({ page }) => {
  const scene = await noteScene();
  const app = await openNote(page, scene);
  await injectFault("PATCH", "/v1/notes/{noteId}", { code: "unexpected_integration_error", count: 1 });
  await app.getByRole("textbox", { name: "Sticky note", exact: true }).fill("Call the lab about the biopsy result.");
  await saveButton(app).click();
  await expect(statusOf(app)).toHaveText(/Not confirmed: the EHR did not confirm the save, so your text may be saved already; Tandem tries again in \d+ seconds$/);
  await app.getByTestId("save-status-bar").getByRole("button", { name: "Retry" }).click();
  await expect(statusOf(app)).toHaveText(SAVED_AT);
  expect((await readNote(scene.note.id)).soapNote.stickyNote.description).toBe("Call the lab about the biopsy result.");

  await app.getByRole("textbox", { name: "Impressions and plans comments", exact: true }).fill("Start topical steroid; review in two weeks.");
  await expect(statusOf(app)).toHaveText(SAVED_AT, { timeout: 15_000 });
  await expect.poll(async () => (await readNote(scene.note.id)).soapNote.impressionsPlansComments).toBe("Start topical steroid; review in two weeks.");
});

test("a save the clinic data service turned away as busy says when Tandem tries again, and is saved by itself then", async ({ page }) => {
  const scene = await noteScene();
  const app = await openNote(page, scene);
  const text = "Recheck blood pressure at the next visit.";
  const appPatches: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "PATCH" && request.url().endsWith(`/api/notes/${scene.note.id}`)) appPatches.push(request.url());
  });
  // A burst of 429s longer than the BFF's own retries: the save reaches the app as busy, with the service's wait.
  await injectFault("PATCH", "/v1/notes/{noteId}", { status: 429, count: 20 });
  await app.getByRole("textbox", { name: "Sticky note", exact: true }).fill(text);
  await saveButton(app).click();
  // The bar counts the service's wait down (read out once, not every second).
  await expect(app.getByTestId("save-status-countdown")).toHaveText(/^Not saved yet: the clinic data service is busy; Tandem tries again in \d+ seconds?$/, { timeout: 20_000 });
  await clearFaults();

  // No click: the refused save (not processed by the service) goes once more when the wait is over.
  await expect(statusOf(app)).toHaveText(SAVED_AT, { timeout: 30_000 });
  expect((await readNote(scene.note.id)).soapNote.stickyNote.description).toBe(text);
  expect(appPatches).toHaveLength(2);
});

test("a save the EHR did not answer in time is not called unsaved, and is sent again by itself without a conflict with itself", async ({ page }) => {
  test.slow();
  const scene = await noteScene();
  const app = await openNote(page, scene);
  const text = "Patch test negative; repeat in six months.";
  // The service applies the save after the BFF has given up waiting (10 s).
  await sandbox("POST", "/faults", { method: "PATCH", path: "/v1/notes/{noteId}", latencyMs: 12_000, count: 1 });
  await app.getByRole("textbox", { name: "Sticky note", exact: true }).fill(text);
  await saveButton(app).click();
  await expect(statusOf(app)).toHaveText(/Not confirmed: the EHR did not confirm the save, so your text may be saved already; Tandem tries again in \d+ seconds$/, { timeout: 20_000 });
  await expect(app.getByRole("textbox", { name: "Sticky note", exact: true })).toHaveValue(text);
  // The first wait is 5 s, and the bar counts it down.
  await expect(app.getByTestId("save-status-countdown")).toHaveText(/; Tandem tries again in [1-4] seconds?$/, { timeout: 5_000 });
  await expect.poll(async () => (await readNote(scene.note.id)).soapNote.stickyNote.description, { timeout: 10_000 }).toBe(text);

  // Sent again by itself after 5 s, without a click: saved again, or found already saved; either way the EHR has
  // the text and nothing is in conflict.
  await expect(statusOf(app)).toHaveText(/(Saved \d{1,2}:\d{2} [AP]M( [A-Z]{3,5})?|No unsaved changes)$/, { timeout: 15_000 });
  expect((await readNote(scene.note.id)).soapNote.stickyNote.description).toBe(text);
});

test("a note signed in the EHR while editing turns read-only and keeps the text to copy", async ({ page }) => {
  const scene = await noteScene();
  const app = await openNote(page, scene);
  await app.getByRole("textbox", { name: "Other exam comments", exact: true }).fill(EXAM_TEXT);
  await signInEhr(scene.note.id);
  await saveButton(app).click();
  await expect(statusOf(app)).toContainText("Read-only: This note was signed in the EHR");
  const field = app.getByRole("textbox", { name: "Other exam comments", exact: true });
  await expect(field).toHaveValue(EXAM_TEXT);
  await expect(field).toHaveAttribute("readonly", "");
  await expect(app.getByTestId("read-only-draft-copy").getByRole("button", { name: "Copy my unsaved text" })).toBeVisible();
  await expect(app.getByRole("button", { name: /^Delete / })).toHaveCount(0);
  await expect(app.getByRole("button", { name: "Create task" })).toHaveCount(0);
  await saveScreenshot(page, "note-signed-while-editing");
  await expectAccessible(page);
});

test("once the EHR has refused a save as signed, the note is signed everywhere: status, Ready to sign, editor, and on reopening within the sync window, a draft only to copy", async ({ page }) => {
  acceptLeaving(page);
  const scene = await noteScene();
  let app = await openNote(page, scene);
  await app.getByRole("textbox", { name: "Other exam comments", exact: true }).fill(EXAM_TEXT);
  await signInEhr(scene.note.id);
  await saveButton(app).click();
  await expect(statusOf(app)).toContainText("Read-only: This note was signed in the EHR");
  // Nothing beside it says otherwise.
  await expect(app.getByTestId("note-status")).toHaveText("Signed");
  const signOff = app.locator("#section-sign-off");
  await expect(signOff).toContainText("This note is signed in the EHR");
  await expect(signOff).not.toContainText("Ready to sign:");
  await saveScreenshot(page, "note-signed-refused-save");

  // Reopened before the service's mirror has synced the signature: still signed.
  const callsOfTheReopenedNote = recordApiCallsOfOpenDocuments(page);
  app = await openNote(page, scene);
  expect((await readNote(scene.note.id)).status).toBe("awaiting_sign");
  await expect(statusOf(app)).toContainText("Read-only: This note");
  await expect(app.getByTestId("note-status")).toHaveText("Signed");
  await expect(app.locator("#section-sign-off")).toContainText("This note is signed in the EHR");
  const field = app.getByRole("textbox", { name: "Other exam comments", exact: true });
  await expect(field).toHaveAttribute("readonly", "");
  // The text typed before the signature is offered to copy, never to restore into the editor.
  const offer = app.getByTestId("draft-restore-notice");
  await expect(offer).toContainText(EXAM_TEXT);
  await expect(offer.getByRole("button", { name: "Restore" })).toHaveCount(0);
  // Told once, in the notice that shows the text.
  await expect(offer.getByRole("button", { name: "Copy my unsaved text" })).toBeVisible();
  await expect(app.getByTestId("read-only-draft-copy")).toHaveCount(0);
  await expect(field).not.toHaveValue(EXAM_TEXT);
  await saveScreenshot(page, "note-signed-reopened");
  // Nothing is written to the note or the draft (recording what the user has looked at is neither).
  expect(callsOfTheReopenedNote().filter((call) => (call.method === "PATCH" || call.method === "PUT") && !call.path.endsWith("/view"))).toEqual([]);
  await expectAccessible(page);
});

test("a note the service reports in progress is never called ready to sign, whatever is marked; the checklist links to its status", async ({ page }) => {
  const scene = await noteScene({ status: "in_progress" });
  const app = await openNote(page, scene);
  const signOff = app.locator("#section-sign-off");
  await expect(signOff).toContainText("The EHR says this note is in progress");
  for (const box of await signOff.getByRole("checkbox").all()) await box.check();
  await expect(signOff).toContainText("Not ready to sign yet");
  await expect(signOff).not.toContainText("Ready to sign:");
  await signOff.getByRole("link", { name: "Go to the note's status" }).click();
  await expect(app.getByTestId("note-status")).toBeFocused();
  await saveScreenshot(page, "note-in-progress-checklist");
});

test("a signature seen on a re-read turns an open note read-only", async ({ page }) => {
  const scene = await noteScene();
  const app = await openNote(page, scene);
  await signInEhr(scene.note.id);
  // The service's mirror shows the signature after a sync.
  await sandbox("POST", "/sync", { organizationId: ORG_A });
  await returnToTab(page);
  await expect(statusOf(app)).toContainText("Read-only: This note is signed in the EHR");
  await expect(app.getByRole("textbox", { name: "Other exam comments", exact: true })).toHaveAttribute("readonly", "");
});

test("someone else's change to the same field is shown beside mine, and I choose", async ({ page }) => {
  const scene = await noteScene();
  const app = await openNote(page, scene);
  await app.getByRole("textbox", { name: "Sticky note", exact: true }).fill("Mine: patient prefers morning calls.");
  await editAsSomeoneElse(scene.note.id, { stickyNoteDescription: "Theirs: call after 3 pm." });
  await saveButton(app).click();
  const editor = app.getByTestId("field-editor-stickyNoteDescription");
  await expect(editor.getByText("This field was changed in the EHR while you were editing")).toBeVisible();
  await expect(editor.getByRole("textbox").nth(1)).toHaveValue("Theirs: call after 3 pm.");
  await expect(app.getByRole("textbox", { name: "Sticky note", exact: true })).toHaveValue("Mine: patient prefers morning calls.");
  await editor.scrollIntoViewIfNeeded();
  await saveScreenshot(page, "note-conflict");
  expect((await readNote(scene.note.id)).soapNote.stickyNote.description).toBe("Theirs: call after 3 pm.");

  await editor.getByRole("button", { name: "Keep my text" }).click();
  await saveButton(app).click();
  await expect(statusOf(app)).toHaveText(SAVED_AT);
  expect((await readNote(scene.note.id)).soapNote.stickyNote.description).toBe("Mine: patient prefers morning calls.");
});

test("a task with two assignees, after the EHR failed the first try: it may have created it, so it is sent again only after a question", async ({ page }) => {
  const scene = await noteScene();
  const users = (await sandboxUsers(ORG_A)).filter((user) => !user.hidden && user.id !== scene.physician.id);
  const assistant = users.find((user) => user.roles.includes("Medical Assistant"));
  const nurse = users.find((user) => user.roles.includes("Nurse Practitioner"));
  if (!assistant || !nurse) throw new Error("seed lacks a medical assistant or a nurse practitioner");
  const app = await openNote(page, scene);
  // A second tab on the same note: it lists what the first one sends, confirmed or not.
  const other = await page.context().newPage();
  await other.clock.install({ time: await sandboxNow() });
  const otherTab = await openNote(other, scene);
  const tasks = app.getByTestId("task-panel");
  await expect(tasks).toContainText("Only tasks created through Tandem are listed");
  await tasks.getByLabel("Task description").fill("Schedule a follow-up biopsy review");
  await tasks.getByRole("button", { name: /Assign to/ }).click();
  for (const user of [assistant, nurse]) {
    await app.getByRole("searchbox", { name: "Search providers" }).fill(user.displayName.split(",")[0] ?? user.displayName);
    await app.getByRole("checkbox", { name: new RegExp(escapeRegExp(user.displayName.split(",")[0] ?? user.displayName)) }).first().check();
  }
  await page.keyboard.press("Escape");
  await expect(tasks).toContainText(`Created as`);

  await injectFault("POST", "/v2/tasks", { status: 502, count: 1 });
  await tasks.getByRole("button", { name: "Create task" }).click();
  // A 502 after the task was sent: the push may have landed, so never "Nothing was created" (issue 35 item 4).
  await expect(tasks).toContainText("The EHR may have created the task.");
  await expect(tasks).not.toContainText("Nothing was created");
  await expect(tasks.getByLabel("Task description")).toHaveValue("Schedule a follow-up biopsy review");
  const unconfirmed = tasks.getByRole("list", { name: "Tasks the EHR has not confirmed" });
  await expect(unconfirmed).toContainText("The EHR may have created this task");
  // Before, the other tab went on saying no task had been created.
  await expect(otherTab.getByTestId("task-panel").getByRole("list", { name: "Tasks the EHR has not confirmed" })).toContainText("Schedule a follow-up biopsy review");
  await unconfirmed.getByRole("button", { name: "Send again…" }).click();
  await expect(unconfirmed).toContainText("If the EHR created it the first time, it will have it twice.");
  await unconfirmed.getByRole("button", { name: "Send again", exact: true }).click();
  await expect(unconfirmed).toHaveCount(0);
  const list = tasks.getByRole("list", { name: "Tasks created through Tandem" });
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list).toContainText("Schedule a follow-up biopsy review");
  await expect(list).toContainText(assistant.displayName.split(",")[0] ?? "");
  await expect(list).toContainText(nurse.displayName.split(",")[0] ?? "");
  await expect(list).toContainText("Not started");
  await expect(otherTab.getByTestId("task-panel").getByRole("list", { name: "Tasks created through Tandem" })).toContainText("Schedule a follow-up biopsy review");
  await expect(otherTab.getByTestId("task-panel").getByRole("list", { name: "Tasks the EHR has not confirmed" })).toHaveCount(0);
  await other.close();
  await tasks.scrollIntoViewIfNeeded();
  await saveScreenshot(page, "note-task-created");
});

test("a task whose answer was lost after the EHR created it is listed as not confirmed, and a second try asks first and creates no second task", async ({ page }) => {
  const scene = await noteScene();
  const assistant = (await sandboxUsers(ORG_A)).find((user) => !user.hidden && user.roles.includes("Medical Assistant"));
  if (!assistant) throw new Error("seed lacks a medical assistant");
  const app = await openNote(page, scene);
  const tasks = app.getByTestId("task-panel");
  await tasks.getByLabel("Task description").fill("Send the pathology request");
  await tasks.getByRole("button", { name: /Assign to/ }).click();
  await app.getByRole("searchbox", { name: "Search providers" }).fill(assistant.displayName.split(",")[0] ?? assistant.displayName);
  await app.getByRole("checkbox", { name: new RegExp(escapeRegExp(assistant.displayName.split(",")[0] ?? assistant.displayName)) }).first().check();
  await page.keyboard.press("Escape");

  await injectFault("POST", "/v2/tasks", { afterAction: "reset", count: 1 });
  await tasks.getByRole("button", { name: "Create task" }).click();
  await expect(tasks).toContainText("The EHR may have created the task.");
  await expect(tasks).toContainText("The clinic data service's answer did not reach Tandem.");
  await expect(tasks).not.toContainText("Nothing was created");
  const unconfirmed = tasks.getByRole("list", { name: "Tasks the EHR has not confirmed" });
  await expect(unconfirmed).toContainText("Send the pathology request");
  // Ready to sign asks for a look in the EHR before signing, and its link goes to the task.
  const signOff = app.getByRole("region", { name: "Ready to sign" });
  await expect(signOff).toContainText("1 task is not confirmed by the EHR");
  await signOff.getByRole("link", { name: "Go to task: Send the pathology request" }).click();
  await expect(unconfirmed.getByTestId("unconfirmed-task")).toBeFocused();

  // The same task again from the form: not sent until the user chooses, warned it may then be there twice.
  await tasks.getByRole("button", { name: "Create task" }).click();
  await expect(tasks).toContainText("This task may be in the EHR already.");
  await expectAccessible(page);
  await saveScreenshot(page, "note-task-possible-duplicate");
  await tasks.getByRole("button", { name: "Send it again anyway" }).click();
  // Sent under the first try's Idempotency-Key: the emulator answers the first task.
  const list = tasks.getByRole("list", { name: "Tasks created through Tandem" });
  await expect(list.getByRole("listitem").filter({ hasText: "Send the pathology request" })).toHaveCount(1);
  await expect(unconfirmed).toHaveCount(0);
  await expect(signOff).not.toContainText("not confirmed by the EHR");
});

test("a reload with a task half typed asks first, and staying keeps the text", async ({ page }) => {
  const scene = await noteScene();
  const app = await openNote(page, scene);
  const description = app.getByTestId("task-panel").getByLabel("Task description");
  await description.fill("Call the patient about the biopsy results");
  const asked: string[] = [];
  page.on("dialog", (dialog) => {
    asked.push(dialog.type());
    void dialog.dismiss();
  });
  await page.locator("#host-reload").click();
  await expect.poll(() => asked).toEqual(["beforeunload"]);
  await expect(description).toHaveValue("Call the patient about the biopsy results");
});

test("a task half typed is still there after a visit to Availability and back", async ({ page }) => {
  const scene = await noteScene();
  const app = await openNote(page, scene);
  const description = app.getByTestId("task-panel").getByLabel("Task description");
  await description.fill("Call the patient about the biopsy results");
  const nav = app.getByRole("navigation", { name: "Tandem" });
  await nav.getByRole("link", { name: "Availability" }).click();
  await expect(app.getByTestId("task-panel")).toHaveCount(0);
  await nav.getByRole("link", { name: "Note" }).click();
  await expect(description).toHaveValue("Call the patient about the biopsy results");
});

/** A note with images, opened, and its first image as the service lists it. */
async function openNoteWithImage(page: Page) {
  const scene = await noteScene();
  const { images } = await upstream<{ images: { id: string; fileName: string }[] }>(`/v3/notes/${scene.note.id}/images`);
  const image = images[0];
  if (!image) throw new Error("no image");
  const app = await openNote(page, scene);
  return { scene, image, app, panel: app.getByTestId("image-panel") };
}

test("an image is deleted after a confirmation naming the file", async ({ page }) => {
  const { scene, image, app, panel } = await openNoteWithImage(page);
  await panel.getByRole("button", { name: `Delete ${image.fileName}` }).click();
  const dialog = app.getByRole("alertdialog", { name: `Delete ${image.fileName}?` });
  await expect(dialog).toBeVisible();
  // The note does not scroll under the dialog: Radix's scroll lock is a style element, allowed by the page's CSP nonce.
  await expect(app.locator("body")).toHaveCSS("overflow", "hidden");
  await saveScreenshot(page, "note-image-confirm");
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();
  // "Deleting…" takes the button's name at once: wait for the deletion itself, then for the list.
  await expect.poll(async () => (await upstream<{ images: { id: string }[] }>(`/v3/notes/${scene.note.id}/images`)).images.map((candidate) => candidate.id)).not.toContain(image.id);
  await expect(panel.getByRole("button", { name: /^(Delete|Deleting)/ }).filter({ hasText: image.fileName })).toHaveCount(0);
  await expect(panel.getByRole("button", { name: "Deleting…" })).toHaveCount(0);
});

test("a delete the clinic data service kept refusing (429) counts the wait down, never a wait long over, and Try again deletes the image", async ({ page }) => {
  const { scene, image, app, panel } = await openNoteWithImage(page);
  // Every delete answers 429 (Retry-After: 1) until cleared: more than the BFF's retries, so it gives up.
  await injectFault("DELETE", "/v3/notes/{noteId}/images/{imageId}", { status: 429, count: 30 });
  await panel.getByRole("button", { name: `Delete ${image.fileName}` }).click();
  await app.getByRole("alertdialog", { name: `Delete ${image.fileName}?` }).getByRole("button", { name: "Delete", exact: true }).click();
  await expect(panel).toContainText(`The clinic data service is busy, so ${image.fileName} was not deleted.`);
  await expect(panel).toContainText(`The clinic data service is busy, so ${image.fileName} was not deleted. Try again now.`);
  await clearFaults();
  await panel.getByRole("button", { name: `Try again to delete ${image.fileName}` }).click();
  await expect.poll(async () => (await upstream<{ images: { id: string }[] }>(`/v3/notes/${scene.note.id}/images`)).images.map((candidate) => candidate.id)).not.toContain(image.id);
});

test("the sign-off panel lists what is left, links to it, and says when the note is ready; keyboard and axe", async ({ page }) => {
  const scene = await noteScene();
  const app = await openNote(page, scene);
  const panel = app.getByRole("region", { name: "Ready to sign" });
  await expect(panel).toContainText("Not ready to sign yet");

  // Keyboard: type in a field and save with Ctrl+S.
  const sticky = app.getByRole("textbox", { name: "Sticky note", exact: true });
  await sticky.focus();
  await page.keyboard.type(" Reviewed with patient.");
  await expect(panel).toContainText("unsaved changes");
  await page.keyboard.press("Control+s");
  await expect(statusOf(app)).toHaveText(SAVED_AT);

  const reviewBoxes = panel.getByRole("checkbox", { name: /^Reviewed/ });
  const count = await reviewBoxes.count();
  for (let index = 0; index < count; index += 1) await reviewBoxes.nth(index).check();
  await expect(panel).toContainText("Ready to sign: the note can be signed in the EHR.");
  await saveScreenshot(page, "note-ready");
  await expectAccessible(page);
});

test("the note fits a 360 px iframe and passes axe", async ({ page }) => {
  const scene = await noteScene();
  const app = await openNote(page, scene, { width: "360" });
  const overflow = await app.locator("html").evaluate((html: HTMLElement) => html.scrollWidth - html.clientWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  await saveScreenshot(page, "note-360");
  await expectAccessible(page);
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
