import { currentCacheIdentity, identityKey, onCacheIdentityChange } from "#src/api/cache-identity.ts";
import { EMPTY_TASK_DRAFT, hasTaskDraft, type TaskFormDraft } from "./task-form-model.ts";

// A task half typed outlives its form within the page: leaving the note for
// another view (Slots, Availability) and coming back finds it as it was left.
// Per signed-in identity and note, in memory only (the text is PHI and is not
// written to storage); another identity forgets every one. A reload asks first
// (task-create-form.tsx).

const drafts = new Map<string, TaskFormDraft>();

/** Forgets every kept draft: on another identity, and between tests. */
export function forgetTaskDrafts(): void {
  drafts.clear();
}

onCacheIdentityChange(forgetTaskDrafts);

const keyOf = (noteId: string) => `${identityKey(currentCacheIdentity())}|${noteId}`;

export function keptTaskDraft(noteId: string): TaskFormDraft {
  return drafts.get(keyOf(noteId)) ?? EMPTY_TASK_DRAFT;
}

export function keepTaskDraft(noteId: string, draft: TaskFormDraft): void {
  if (hasTaskDraft(draft)) drafts.set(keyOf(noteId), draft);
  else drafts.delete(keyOf(noteId));
}
