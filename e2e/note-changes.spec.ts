import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { editAsSomeoneElse, noteScene, openNote, readNote, type NoteScene } from "./support/notes.ts";
import { expectAccessible, saveScreenshot } from "./support/sandbox.ts";

// What changed since you last looked (ADR 0016): a physician who opens a
// note they have seen before is told which writable fields changed since,
// who changed them and what the text was and is. The BFF's store outlives
// the emulator's reset, so a spec cannot know whether an earlier one opened
// the same note: each test first opens the note and waits until the app has
// recorded that view, and compares from there.

/** Resolves when the app has recorded the physician's view of the note (it does so after showing what changed). */
function viewRecorded(page: Page, scene: NoteScene) {
  return page.waitForResponse((response) => response.request().method() === "PUT" && response.url().endsWith(`/api/notes/${scene.note.id}/view`) && response.ok());
}

/** Opens the note and waits until the view is recorded: from then on, what the app shows is settled. */
async function openAndSettle(page: Page, scene: NoteScene, options: { width?: string } = {}) {
  const recorded = viewRecorded(page, scene);
  const app = await openNote(page, scene, options);
  await recorded;
  return app;
}

/** The physician leaves the note (the EHR shows something else). */
async function leave(page: Page) {
  await page.goto("about:blank");
}

test("a field changed in the EHR since the physician last looked is shown with before and after, and only once", async ({ page }) => {
  const scene = await noteScene();
  const before = (await readNote(scene.note.id)).soapNote.stickyNote.description;
  await openAndSettle(page, scene);
  await leave(page);

  const after = "Call the son (health care proxy) with the biopsy result, not the daughter.";
  await editAsSomeoneElse(scene.note.id, { stickyNoteDescription: after });
  const recorded = viewRecorded(page, scene);
  const app = await openNote(page, scene);

  const panel = app.getByTestId("what-changed-panel");
  // On the facility's clock, its zone named when the browser's differs.
  await expect(panel.getByRole("heading", { level: 2 })).toHaveText(/^Changed since you last looked \(\d{1,2}:\d{2} [AP]M( EST)?\)$/);
  const field = panel.getByTestId("changed-field-stickyNoteDescription");
  await expect(field.getByRole("heading", { level: 3 })).toHaveText("Sticky note");
  await expect(field).toContainText("Changed in the EHR");
  // Before and after are told apart in words, not by colour alone.
  await expect(field.getByTestId("text-before")).toHaveText(before === "" ? "(empty)" : before);
  await expect(field.getByTestId("text-after")).toHaveText(after);
  await expect(field.getByText("Before", { exact: true })).toBeVisible();
  await expect(field.getByText("Now", { exact: true })).toBeVisible();
  // Only the field that changed is listed.
  await expect(panel.locator('[data-testid^="changed-field-"]')).toHaveCount(1);
  await recorded;
  await expectAccessible(page);
  await saveScreenshot(page, "note-changes-1280");

  // The link takes the physician to the field itself.
  await field.getByRole("link", { name: "Go to Sticky note" }).click();
  await expect(app.getByRole("textbox", { name: "Sticky note", exact: true })).toBeFocused();

  // Dismissed, the panel is gone.
  await panel.getByRole("button", { name: "Dismiss" }).click();
  await expect(panel).toHaveCount(0);

  // Seen once: reopening shows nothing new.
  await leave(page);
  const reopened = await openAndSettle(page, scene);
  await expect(reopened.getByTestId("note-view")).toHaveAttribute("data-state", "ready");
  await expect(reopened.getByTestId("what-changed-panel")).toHaveCount(0);
});

test("what changed is readable at 400 px", async ({ page }) => {
  await page.setViewportSize({ width: 400, height: 860 });
  const scene = await noteScene();
  await openAndSettle(page, scene);
  await leave(page);
  await editAsSomeoneElse(scene.note.id, { otherExamComments: "Dermatoscope used. A second, smaller atypical macule on the right flank: photographed for comparison at the next visit." });
  const app = await openNote(page, scene);
  const field = app.getByTestId("what-changed-panel").getByTestId("changed-field-otherExamComments");
  await expect(field).toContainText("Changed in the EHR");
  await expect(field.getByTestId("text-after")).toContainText("right flank");
  await saveScreenshot(page, "note-changes-400");
});

test("what the physician saved in Tandem is not news to them the next time", async ({ page }) => {
  const scene = await noteScene();
  const app = await openAndSettle(page, scene);
  const box = app.getByRole("textbox", { name: "Sticky note", exact: true });
  await box.fill("Results to the daughter by phone.");
  // The view is recorded again once the saved note is on screen.
  const recordedAfterSave = viewRecorded(page, scene);
  await app.getByTestId("save-status-bar").getByRole("button", { name: "Save", exact: true }).click();
  await expect(app.getByTestId("save-status-bar")).toHaveAttribute("data-status", "saved");
  await recordedAfterSave;
  await leave(page);

  const reopened = await openAndSettle(page, scene);
  await expect(reopened.getByRole("textbox", { name: "Sticky note", exact: true })).toHaveValue("Results to the daughter by phone.");
  await expect(reopened.getByTestId("what-changed-panel")).toHaveCount(0);
});
