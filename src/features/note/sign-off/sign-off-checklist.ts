import { SIGNED_NOTE_STATUS, type Note } from "../../../../contract/clinic-api/note.ts";
import { describeAiReview } from "../ai-review.ts";

// The "Ready to sign" checklist (issue 7): what stands between the note and
// the clinician's signature in the EHR. Two kinds of item:
// - "save": typed text the EHR does not have yet (unsaved or failed changes,
//   a conflict to settle). Only saving clears it.
// - "review": the EHR's AI review (issues found, not finished, or a result
//   Tandem does not know), empty sections a signer usually fills, tasks still
//   open. Tandem cannot change these (the service writes only four fields and
//   has no task read), so the clinician looks and marks each one reviewed; a
//   mark holds only while the thing it was given for is unchanged (its key).
//   The AI review's issues live in the EHR only (the service gives a count),
//   so that item sends the clinician there and links to nothing here.
// The note is ready when no item needs anything.

export type ChecklistItemKind = "save" | "review";

export interface ChecklistLink {
  /** The element the link goes to. */
  targetId: string;
  label: string;
}

export interface ChecklistItem {
  /** Stable for what it is about: a review mark is stored under it. */
  key: string;
  kind: ChecklistItemKind;
  title: string;
  detail: string;
  /** Where in the note the item can be seen to; none when it is only in the EHR. */
  links: readonly ChecklistLink[];
  /** Needs saving, or not yet marked reviewed. */
  needsAction: boolean;
}

export interface SignOffChecklist {
  state: "signed" | "ready" | "not_ready";
  items: ChecklistItem[];
  /** One plain sentence for the panel's heading. */
  summary: string;
}

export interface SignOffInput {
  note: Note;
  /** Sections a signer usually fills that are empty, in note order. */
  emptySignerSections: readonly { id: string; title: string }[];
  /** Writable fields with text the EHR does not have yet. */
  unsavedFields: readonly { label: string; inputId: string }[];
  /** A save failed or a conflict waits for a choice. */
  saveProblem: string | null;
  /** Tasks created through Tandem that are still open. */
  openTasks: readonly { id: string; description: string }[];
  /** Keys of the items the clinician marked reviewed. */
  reviewed: ReadonlySet<string>;
}

export const TASKS_TARGET_ID = "section-tasks";

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export function buildSignOffChecklist(input: SignOffInput): SignOffChecklist {
  const { note } = input;
  if (note.status === SIGNED_NOTE_STATUS) {
    return { state: "signed", items: [], summary: "This note is signed in the EHR: there is nothing left to prepare." };
  }
  const items: ChecklistItem[] = [];

  const firstUnsaved = input.unsavedFields[0];
  if (input.saveProblem !== null || firstUnsaved) {
    items.push({
      key: "save",
      kind: "save",
      title: input.saveProblem ?? `${plural(input.unsavedFields.length, "field has", "fields have")} unsaved changes`,
      detail: input.unsavedFields.length > 0 ? `Save ${input.unsavedFields.map((field) => field.label).join(", ")} so the EHR has your text before you sign.` : "Settle this so the EHR has your text before you sign.",
      links: [firstUnsaved ? { targetId: firstUnsaved.inputId, label: `Go to ${firstUnsaved.label}` } : { targetId: "note-save-status", label: "Go to the save status" }],
      needsAction: true,
    });
  }

  const aiReview = describeAiReview(note.aiStatus, note.aiIssueCount);
  if (aiReview.needsReview) {
    const key = `ai:${note.aiStatus}:${note.aiIssueCount}:${note.version}`;
    items.push({ key, kind: "review", title: aiReview.finding, detail: aiReview.advice, links: [], needsAction: !input.reviewed.has(key) });
  }

  for (const section of input.emptySignerSections) {
    const key = `empty:${section.id}:${note.version}`;
    items.push({
      key,
      kind: "review",
      title: `${section.title} is empty`,
      detail: "Signers usually fill this section. Complete it in the EHR, or confirm it is not needed for this visit.",
      links: [{ targetId: section.id, label: `Go to ${section.title}` }],
      needsAction: !input.reviewed.has(key),
    });
  }

  if (input.openTasks.length > 0) {
    const key = `tasks:${input.openTasks.map((task) => task.id).sort().join(",")}`;
    items.push({
      key,
      kind: "review",
      title: `${plural(input.openTasks.length, "task is", "tasks are")} still open`,
      detail: "Tasks created through Tandem on this note have not been completed. A note can be signed with open tasks; check that is what you want.",
      links: [{ targetId: TASKS_TARGET_ID, label: "Go to tasks" }],
      needsAction: !input.reviewed.has(key),
    });
  }

  const pending = items.filter((item) => item.needsAction).length;
  return pending === 0
    ? { state: "ready", items, summary: "Ready to sign: the note can be signed in the EHR." }
    : { state: "not_ready", items, summary: `Not ready to sign yet: ${plural(pending, "item needs", "items need")} your attention.` };
}
