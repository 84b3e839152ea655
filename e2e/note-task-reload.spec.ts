import type { FrameLocator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { FRAME_STORAGE_GRANTED } from "./support/frame-storage.ts";
import { noteScene, openNote } from "./support/notes.ts";
import { ORG_A, sandboxUsers, saveScreenshot } from "./support/sandbox.ts";

// A task half typed survives a reload answered "Leave": before, it lived in
// the page's memory only and the reload lost it (found walking the note at
// 400 px), unlike the waitlist form and the note's fields. It is kept in the
// frame's sessionStorage, so this spec runs with the frame's storage granted
// (support/frame-storage.ts); once the task is created, a reload finds an
// empty form.

test.use(FRAME_STORAGE_GRANTED);

const DESCRIPTION = "Call the patient about the biopsy results";

async function reloadApp(page: Page): Promise<FrameLocator> {
  await page.locator("#host-reload").click();
  const app = page.frameLocator("iframe#tandem-app");
  await expect(app.getByTestId("note-view")).toHaveAttribute("data-state", "ready", { timeout: 20_000 });
  return app;
}

test("a task half typed, with its assignee, is there again after a reload answered Leave, and gone once created", async ({ page }) => {
  const scene = await noteScene();
  const assistant = (await sandboxUsers(ORG_A)).find((user) => !user.hidden && user.roles.includes("Medical Assistant"));
  if (!assistant) throw new Error("seed lacks a medical assistant");
  const surname = assistant.displayName.split(",")[0] ?? assistant.displayName;
  page.on("dialog", (dialog) => void dialog.accept());

  let app = await openNote(page, scene, { width: "360" });
  let tasks = app.getByTestId("task-panel");
  await tasks.getByLabel("Task description").fill(DESCRIPTION);
  await tasks.getByRole("button", { name: /Assign to/ }).click();
  await app.getByRole("searchbox", { name: "Search providers" }).fill(surname);
  await app.getByRole("checkbox", { name: new RegExp(surname) }).first().check();
  await page.keyboard.press("Escape");

  app = await reloadApp(page);
  tasks = app.getByTestId("task-panel");
  await expect(tasks.getByLabel("Task description")).toHaveValue(DESCRIPTION);
  await expect(tasks.getByRole("button", { name: /Assign to/ })).toContainText(surname);
  await tasks.scrollIntoViewIfNeeded();
  await saveScreenshot(page, "note-task-after-reload-400");

  await tasks.getByRole("button", { name: "Create task" }).click();
  await expect(tasks.getByRole("list", { name: "Tasks created through Tandem" })).toContainText(DESCRIPTION);
  await expect(tasks.getByLabel("Task description")).toHaveValue("");

  app = await reloadApp(page);
  tasks = app.getByTestId("task-panel");
  await expect(tasks.getByRole("list", { name: "Tasks created through Tandem" })).toContainText(DESCRIPTION);
  await expect(tasks.getByLabel("Task description")).toHaveValue("");
});
