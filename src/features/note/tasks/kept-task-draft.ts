import * as z from "zod/mini";
import { keptDrafts } from "#src/api/kept-drafts.ts";
import { EMPTY_TASK_DRAFT, hasTaskDraft, type TaskFormDraft } from "./task-form-model.ts";

// A task half typed is kept for its note until the BFF has the task
// (src/api/kept-drafts.ts): leaving the note for another view, a reload, or
// the browser's "Leave site?" answered Leave finds it as it was left.

const drafts = keptDrafts<TaskFormDraft>("task-draft", z.object({ description: z.string(), assigneeIds: z.array(z.string()) }));

/** Forgets every kept task draft: between tests. */
export const forgetTaskDrafts = (): void => drafts.forgetAll();

export const keptTaskDraft = (noteId: string): TaskFormDraft => drafts.read(noteId) ?? EMPTY_TASK_DRAFT;

export function keepTaskDraft(noteId: string, draft: TaskFormDraft): void {
  if (hasTaskDraft(draft)) drafts.keep(noteId, draft);
  else drafts.forget(noteId);
}
