import type { FrameLocator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { editAsSomeoneElse, injectFault, noteScene, openNote, type NoteScene } from "./support/notes.ts";
import { ORG_A, callApp, expectAccessible, saveScreenshot, sandboxUsers } from "./support/sandbox.ts";

// ADR 0008 "On this note": the navigation once left out Tasks and Images, at the foot of
// a page some 6,000 px long. Every part of the note is reachable from the
// navigation and by keyboard: following an entry puts focus there (so Tab
// goes on from that place), clear of the sticky save bar; the Ready-to-sign
// panel links to each open item it lists.

// Scrolls are instant, as for a user who asks for reduced motion: where focus lands is then read at rest,
// never halfway through a smooth scroll.
test.use({ reducedMotion: "reduce" });

const outlineOf = (app: FrameLocator) => app.getByRole("navigation", { name: "On this note" });
const signOffPanel = (app: FrameLocator) => app.getByRole("region", { name: "Ready to sign" });

/** Whether focus is on or inside the element with this id. */
function isFocusWithin(app: FrameLocator, id: string): Promise<boolean> {
  return app.locator("body").evaluate((_body, targetId) => {
    const active = document.activeElement;
    return active !== null && active !== document.body && document.getElementById(targetId)?.contains(active) === true;
  }, id);
}

/** Where the focused element is: below the sticky save bar and inside the frame's viewport, or why not. */
function whereFocusIs(app: FrameLocator): Promise<string> {
  return app.locator("body").evaluate(() => {
    const active = document.activeElement;
    const bar = document.getElementById("note-save-status");
    if (active === null || active === document.body || bar === null) return "nothing focused";
    const box = active.getBoundingClientRect();
    const barBottom = bar.getBoundingClientRect().bottom;
    if (box.top < barBottom) return `under the save bar (top ${Math.round(box.top)} < ${Math.round(barBottom)})`;
    if (box.top >= window.innerHeight) return "below the frame";
    return "in view";
  });
}

/** Follows a link the way a keyboard user does: focus it, press Enter. */
async function followByKeyboard(page: Page, link: ReturnType<FrameLocator["getByRole"]>): Promise<void> {
  await link.focus();
  await page.keyboard.press("Enter");
}

test("every part of the note is in 'On this note', and following an entry by keyboard puts focus there, clear of the save bar", async ({ page }) => {
  const scene = await noteScene();
  const app = await openNote(page, scene);
  const outline = outlineOf(app);
  await expect(outline.getByRole("link", { name: /^Tasks/ })).toBeVisible();
  await expect(outline.getByRole("link", { name: /^Images/ })).toBeVisible();

  const targets = await outline.getByRole("link").evaluateAll((links) => links.map((link) => link.getAttribute("href")?.slice(1) ?? ""));
  expect(targets.slice(0, 2)).toEqual(["section-summary", "section-sign-off"]);
  expect(targets.slice(-2)).toEqual(["section-tasks", "section-images"]);
  for (const target of targets) {
    await followByKeyboard(page, outline.locator(`a[href="#${target}"]`));
    await expect.poll(() => isFocusWithin(app, target), { message: `focus in #${target}` }).toBe(true);
    await expect.poll(() => whereFocusIs(app), { message: `#${target} seen` }).toBe("in view");
  }

  // Tab goes on from the place the link led to.
  await followByKeyboard(page, outline.getByRole("link", { name: /^Tasks/ }));
  await expect.poll(() => isFocusWithin(app, "section-tasks")).toBe(true);
  await page.keyboard.press("Tab");
  await expect(app.getByTestId("task-panel").getByLabel("Task description")).toBeFocused();
  await expect.poll(() => whereFocusIs(app)).toBe("in view");
  await saveScreenshot(page, "note-nav-tasks-1280");

  await followByKeyboard(page, outline.getByRole("link", { name: /^Images/ }));
  await expect.poll(() => isFocusWithin(app, "section-images")).toBe(true);
  await page.keyboard.press("Tab");
  await expect(app.getByTestId("image-panel").getByRole("button", { name: /^Delete / }).first()).toBeFocused();
  await expect.poll(() => whereFocusIs(app)).toBe("in view");
  await saveScreenshot(page, "note-nav-images-1280");
  await expectAccessible(page);
});

test("at 400 px 'On this note' opens from its button and takes the keyboard to the images at the foot of the note", async ({ page }) => {
  const scene = await noteScene();
  await page.setViewportSize({ width: 400, height: 860 });
  const app = await openNote(page, scene);
  const outline = outlineOf(app);
  const toggle = outline.getByRole("button", { name: /^On this note/ });
  await followByKeyboard(page, toggle);
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await saveScreenshot(page, "note-nav-open-400");
  await followByKeyboard(page, outline.getByRole("link", { name: /^Images/ }));
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect.poll(() => isFocusWithin(app, "section-images")).toBe(true);
  await expect.poll(() => whereFocusIs(app)).toBe("in view");
  await saveScreenshot(page, "note-nav-images-400");
});

async function createTask(scene: NoteScene, description: string): Promise<void> {
  const assignee = (await sandboxUsers(ORG_A)).find((user) => !user.hidden && user.roles.includes("Medical Assistant"));
  if (!assignee) throw new Error("seed lacks a medical assistant");
  await callApp("POST", `/api/notes/${scene.note.id}/tasks`, { organizationId: ORG_A, userId: scene.physician.id, noteId: scene.note.id }, { notes: description, assigneeIds: [assignee.id] });
}

test("the Ready-to-sign panel links each open item, and following a link puts focus on it", async ({ page }) => {
  // A note of its own: tasks created through Tandem outlive the emulator's reset in the BFF's store, and
  // note.spec.ts counts the tasks on the default scene's note (which has AI issues).
  const scene = await noteScene({ aiStatus: "no_issues" });
  await editAsSomeoneElse(scene.note.id, {
    additionalHpiComments: "Rash spread to the left forearm over three days.",
    impressionsPlansComments: "Start topical steroid; review in two weeks.",
    stickyNoteDescription: "",
    otherExamComments: "",
  });
  await createTask(scene, "Call the lab about the biopsy result");
  await createTask(scene, "Book a follow-up in two weeks");
  const app = await openNote(page, scene);
  const panel = signOffPanel(app);

  // Each empty field Tandem can write, by itself.
  const emptyFields = panel.getByRole("listitem").filter({ hasText: "Other exam comments and Sticky note are empty" });
  await expect(emptyFields).toBeVisible();
  await followByKeyboard(page, emptyFields.getByRole("link", { name: "Go to Sticky note" }));
  await expect(app.getByRole("textbox", { name: "Sticky note", exact: true })).toBeFocused();
  await expect.poll(() => whereFocusIs(app)).toBe("in view");
  await followByKeyboard(page, emptyFields.getByRole("link", { name: "Go to Other exam comments" }));
  await expect(app.getByRole("textbox", { name: "Other exam comments", exact: true })).toBeFocused();

  // Each open task, by itself.
  const tasks = panel.getByRole("listitem").filter({ hasText: "tasks are still open" });
  await followByKeyboard(page, tasks.getByRole("link", { name: "Go to task: Book a follow-up in two weeks" }));
  const followUp = app.getByTestId("note-task").filter({ hasText: "Book a follow-up in two weeks" });
  await expect(followUp).toBeFocused();
  await expect.poll(() => whereFocusIs(app)).toBe("in view");
  await saveScreenshot(page, "note-sign-off-link-to-task-1280");
  await followByKeyboard(page, tasks.getByRole("link", { name: "Go to task: Call the lab about the biopsy result" }));
  await expect(app.getByTestId("note-task").filter({ hasText: "Call the lab about the biopsy result" })).toBeFocused();

  // Each unsaved field, by itself. The EHR does not answer, so autosave cannot clear the item while the test reads it.
  await injectFault("PATCH", "/v1/notes/{noteId}", { code: "server_unresponsive", count: 20 });
  await app.getByRole("textbox", { name: "Sticky note", exact: true }).fill("Patient prefers morning calls.");
  await app.getByRole("textbox", { name: "Additional HPI comments", exact: true }).fill("Itching worse at night.");
  const unsaved = panel.getByRole("listitem").filter({ hasText: "(Needs saving)" });
  await expect(unsaved.getByRole("link")).toHaveText(["Go to Additional HPI comments", "Go to Sticky note"]);
  await followByKeyboard(page, unsaved.getByRole("link", { name: "Go to Sticky note" }));
  await expect(app.getByRole("textbox", { name: "Sticky note", exact: true })).toBeFocused();
  await expect.poll(() => whereFocusIs(app)).toBe("in view");
  await panel.scrollIntoViewIfNeeded();
  await saveScreenshot(page, "note-sign-off-links-1280");
  await expectAccessible(page);
});
