import type { FrameLocator, Locator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { editAsSomeoneElse, noteScene, openNote, readNote, returnToTab } from "./support/notes.ts";
import { ORG_A, expectAccessible, sandbox, sandboxNow, saveScreenshot, upstream } from "./support/sandbox.ts";

// A field changed in the EHR while the physician reads the note (issue 35
// item 3): the open note is re-read (every 20 s, or when the physician comes
// back to the EHR's tab), the field shows the new text, marked "Changed in
// the EHR just now" with the text it replaced one click away, until the
// physician dismisses the mark or leaves the note. A field being edited is
// never replaced: Keep mine / Use the EHR's applies there.

const EXAM_FIELD = "Other exam comments";
const FIRST_CHANGE = "Dermatoscope used. A second, smaller atypical macule on the right flank: photographed for comparison.";
const SECOND_CHANGE = "Dermatoscope used. Right flank macule 3 mm, regular border: no biopsy today.";
/** The facility's clock (New York), its zone named where the browser's differs. */
const JUST_NOW = /^Changed in the EHR just now \(\d{1,2}:\d{2} [AP]M( EST)?\): Other exam comments$/;

const examBox = (app: FrameLocator) => app.getByRole("textbox", { name: EXAM_FIELD, exact: true });
const markOf = (app: FrameLocator, field: string) => app.getByTestId(`changed-under-reader-${field}`);
const showEarlier = (mark: Locator) => mark.getByRole("button", { name: /earlier text/ });

/** A clinician changes sections of the note in the EHR itself; the service's mirror has it after a sync. */
async function changeInEhr(noteId: string, soapNote: Record<string, unknown>) {
  await sandbox("PATCH", `/ehr/${ORG_A}/notes/${noteId}`, { soapNote });
  await sandbox("POST", "/sync", { organizationId: ORG_A });
}

/** The note's 20-second re-read comes round, as when the physician just keeps reading. */
async function waitForTheNextRead(page: Page) {
  await page.clock.fastForward("00:21");
}

test("a field changed in the EHR while the physician reads it is marked at the field, with the text it replaced one click away", async ({ page }) => {
  const scene = await noteScene();
  const original = (await readNote(scene.note.id)).soapNote.exam.otherExamComments;
  const app = await openNote(page, scene);
  await expect(examBox(app)).toHaveValue(original);
  await expect(markOf(app, "otherExamComments")).toHaveCount(0);

  await editAsSomeoneElse(scene.note.id, { otherExamComments: FIRST_CHANGE });
  await waitForTheNextRead(page);
  // Seen without reopening the note: the new text, marked at the field, and said to screen readers.
  await expect(examBox(app)).toHaveValue(FIRST_CHANGE);
  const mark = markOf(app, "otherExamComments");
  await expect(mark.getByRole("paragraph").first()).toHaveText(JUST_NOW);
  await expect(app.getByTestId("field-change-announcement")).toHaveText("Other exam comments was changed in the EHR just now.");
  await expect(app.getByTestId("field-editor-otherExamComments")).not.toHaveAttribute("data-changed");
  await expect(markOf(app, "stickyNoteDescription")).toHaveCount(0);

  // The text it replaced, one click away.
  const toggle = showEarlier(mark);
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(mark.getByTestId("replaced-text")).toBeHidden();
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(mark.getByTestId("replaced-text")).toHaveText(original === "" ? "(empty)" : original);
  await mark.scrollIntoViewIfNeeded();
  await expectAccessible(page);
  await saveScreenshot(page, "note-changed-while-reading-1280");

  // Changed again, with another field: each is marked, and the exam field shows the text the physician last saw.
  await editAsSomeoneElse(scene.note.id, { otherExamComments: SECOND_CHANGE, stickyNoteDescription: "Call the son with the result." });
  await returnToTab(page);
  await expect(examBox(app)).toHaveValue(SECOND_CHANGE);
  await expect(mark.getByTestId("replaced-text")).toHaveText(FIRST_CHANGE);
  await expect(markOf(app, "stickyNoteDescription")).toContainText("Changed in the EHR just now");
  await expect(app.getByTestId("field-change-announcement")).toHaveText("Other exam comments and Sticky note were changed in the EHR just now.");

  // Dismissed, the mark goes and the physician is in the field; the other mark stays.
  await mark.getByRole("button", { name: "Dismiss" }).click();
  await expect(mark).toHaveCount(0);
  await expect(examBox(app)).toBeFocused();
  await expect(markOf(app, "stickyNoteDescription")).toHaveCount(1);

  // Leaving the note ends the marks: reopened, the note is simply as it is.
  await page.goto("about:blank");
  const reopened = await openNote(page, scene);
  await expect(examBox(reopened)).toHaveValue(SECOND_CHANGE);
  await expect(reopened.locator('[data-testid^="changed-under-reader-"]')).toHaveCount(0);
});

/**
 * The physician's note open in two tabs; tab A saves FIRST_CHANGE in the exam comments and tab B, at its next read,
 * shows it. Answers both tabs and tab B's page.
 */
async function savedInTabAShownInTabB(page: Page) {
  const scene = await noteScene();
  const tabA = await openNote(page, scene);
  const other = await page.context().newPage();
  await other.clock.install({ time: await sandboxNow() });
  const tabB = await openNote(other, scene);
  await examBox(tabA).fill(FIRST_CHANGE);
  await tabA.getByTestId("save-status-bar").getByRole("button", { name: "Save", exact: true }).click();
  await expect(markOf(tabA, "otherExamComments")).toHaveCount(0);
  await waitForTheNextRead(other);
  await expect(examBox(tabB)).toHaveValue(FIRST_CHANGE);
  return { scene, tabA, tabB, other };
}

test("the physician's own save in another tab is marked in this one as theirs, never as a change in the EHR", async ({ page }) => {
  // Tab B hears of the save (a live event, or its next read) and shows the text, marked as the physician's own.
  const { scene, tabB, other } = await savedInTabAShownInTabB(page);
  const mark = markOf(tabB, "otherExamComments");
  await expect(mark.getByRole("paragraph").first()).toHaveText(/^Saved by you in another tab just now \(\d{1,2}:\d{2} [AP]M( EST)?\): Other exam comments$/);
  await expect(tabB.getByTestId("field-change-announcement")).toHaveText("Other exam comments was saved by you in another tab just now.");
  await showEarlier(mark).click();
  await expect(mark.getByTestId("replaced-text")).toBeVisible();
  await saveScreenshot(other, "note-saved-in-another-tab-1280");

  // A change in the EHR afterwards is the EHR's again.
  await editAsSomeoneElse(scene.note.id, { otherExamComments: SECOND_CHANGE });
  await waitForTheNextRead(other);
  await expect(examBox(tabB)).toHaveValue(SECOND_CHANGE);
  await expect(mark.getByRole("paragraph").first()).toHaveText(JUST_NOW);
  await other.close();
});

test("the mark of the physician's own save in another tab goes once they type in that field here", async ({ page }) => {
  const { tabB, other } = await savedInTabAShownInTabB(page);
  await expect(markOf(tabB, "otherExamComments")).toHaveCount(1);

  await examBox(tabB).press("End");
  await examBox(tabB).pressSequentially(" Typed here.");
  await expect(markOf(tabB, "otherExamComments")).toHaveCount(0);
  await expect(examBox(tabB)).toHaveValue(`${FIRST_CHANGE} Typed here.`);
  await other.close();
});

test("a field being edited is never replaced: the typed text stays and the choice is the physician's, while an untouched field is marked", async ({ page }) => {
  const scene = await noteScene();
  const app = await openNote(page, scene);
  await examBox(app).fill("Mine: no palpable nodes.");
  await editAsSomeoneElse(scene.note.id, { otherExamComments: "Theirs: one palpable node, left neck.", stickyNoteDescription: "Call the son with the result." });
  await returnToTab(page);

  await expect(markOf(app, "stickyNoteDescription")).toContainText("Changed in the EHR just now");
  const editor = app.getByTestId("field-editor-otherExamComments");
  await expect(editor.getByText("This field was changed in the EHR while you were editing")).toBeVisible();
  await expect(examBox(app)).toHaveValue("Mine: no palpable nodes.");
  await expect(editor.getByRole("textbox").nth(1)).toHaveValue("Theirs: one palpable node, left neck.");
  await expect(markOf(app, "otherExamComments")).toHaveCount(0);

  // Taking the EHR's text is the physician's own choice: it is not marked as a change under them.
  await editor.getByRole("button", { name: "Use the EHR's text" }).click();
  await expect(examBox(app)).toHaveValue("Theirs: one palpable node, left neck.");
  await expect(markOf(app, "otherExamComments")).toHaveCount(0);
});

test("at 400 px, by keyboard alone: the mark is reached, the earlier text shown, and the mark dismissed", async ({ page }) => {
  await page.setViewportSize({ width: 400, height: 860 });
  const scene = await noteScene();
  const original = (await readNote(scene.note.id)).soapNote.exam.otherExamComments;
  const app = await openNote(page, scene);
  await editAsSomeoneElse(scene.note.id, { otherExamComments: FIRST_CHANGE });
  await waitForTheNextRead(page);
  const mark = markOf(app, "otherExamComments");
  await expect(mark).toContainText("Changed in the EHR just now");

  // From the field before it (Additional HPI comments), Tab reaches the mark's button.
  await app.getByRole("textbox", { name: "Additional HPI comments", exact: true }).focus();
  const toggle = showEarlier(mark);
  for (let presses = 0; presses < 12 && !(await toggle.evaluate((element) => element === document.activeElement)); presses += 1) await page.keyboard.press("Tab");
  await expect(toggle).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(mark.getByTestId("replaced-text")).toHaveText(original === "" ? "(empty)" : original);
  await mark.scrollIntoViewIfNeeded();
  await saveScreenshot(page, "note-changed-while-reading-400");
  await expectAccessible(page);

  await page.keyboard.press("Tab");
  await expect(mark.getByRole("button", { name: "Dismiss" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(mark).toHaveCount(0);
  await expect(examBox(app)).toBeFocused();
});

test("read-only section text changed in the EHR while the physician reads is marked at the section, with what it replaced", async ({ page }) => {
  const scene = await noteScene();
  const app = await openNote(page, scene);
  const section = app.locator("#section-data-reviewed");
  const { soapNote } = await upstream<{ soapNote: { dataReviewed: string | null } }>(`/v1/notes/${scene.note.id}`);
  const earlier = soapNote.dataReviewed?.trim() || "Nothing recorded";
  await changeInEhr(scene.note.id, { dataReviewed: "Outside pathology report (left upper back shave biopsy) reviewed with the patient." });
  await waitForTheNextRead(page);

  await expect(section).toContainText("Outside pathology report");
  const mark = markOf(app, "section-data-reviewed");
  await expect(mark).toContainText("Changed in the EHR just now");
  await expect(app.getByTestId("field-change-announcement")).toHaveText("Data reviewed was changed in the EHR just now.");
  await showEarlier(mark).click();
  await expect(mark.getByTestId("replaced")).toContainText(earlier);
  await expect(mark.getByTestId("replaced")).not.toContainText("Outside pathology report");
  // Only what changed is marked: the writable fields were not touched.
  await expect(app.locator('[data-testid^="changed-under-reader-"]')).toHaveCount(1);
  await mark.scrollIntoViewIfNeeded();
  await expectAccessible(page);
  await saveScreenshot(page, "note-section-changed-while-reading-1280");

  await mark.getByRole("button", { name: "Dismiss" }).click();
  await expect(mark).toHaveCount(0);
  await expect(section.getByRole("heading", { level: 2 })).toBeFocused();
});
