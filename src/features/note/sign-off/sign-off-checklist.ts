import { SIGNED_NOTE_STATUS, type Note } from "#contract/clinic-api/note.ts";
import { describeAiReview } from "../ai-review.ts";
import { taskElementId, unconfirmedTaskElementId } from "../note-outline.ts";
import { noteStatusText } from "../reading/note-format.ts";

// The "Ready to sign" checklist (ADR 0008 "Ready to sign"): what stands between the note and
// the clinician's signature in the EHR. Two kinds of item:
// - "save": typed text the EHR does not have yet (unsaved or failed changes,
//   a conflict to settle). Only saving clears it.
// - "review": the EHR's AI review (issues found, not finished, or a result
//   Tandem does not know), empty sections a signer usually fills, empty
//   fields Tandem can write, tasks still open, tasks the EHR has not
//   confirmed. Tandem cannot change these (the service writes only four fields and
//   has no task read), so the clinician looks and marks each one reviewed; a
//   mark holds only while the thing it was given for is unchanged (its key).
//   The AI review's issues live in the EHR only (the service gives a count),
//   so that item sends the clinician there and links to nothing here; every
//   other item links to each thing it names (ADR 0008 "On this note").
// - "service": the service's own state of the note is not "awaiting
//   signature" (in progress, or a state Tandem does not know). No mark clears
//   it: "ready" is said only when the service's state and the checklist agree.
// The note is ready when no item needs anything.

/** The one state in which the EHR takes a signature (seed 000: `awaiting_sign`). */
export const AWAITING_SIGN_STATUS = "awaiting_sign";
/** The draft notice (draft-restore-notice.tsx): where unsaved text from earlier waits for Restore or Discard. */
export const DRAFT_NOTICE_ID = "draft-restore-notice";

export type ChecklistItemKind = "save" | "review" | "service";

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
  /** Writable fields with no text, in note order; empty when the note cannot be edited here. */
  emptyFields: readonly { label: string; inputId: string; sectionId: string }[];
  /** A save failed or a conflict waits for a choice. */
  saveProblem: string | null;
  /** Unsaved text from earlier (a reload, a crash) waits for Restore or Discard. */
  hasWaitingDraft: boolean;
  /** Tasks created through Tandem that are still open. */
  openTasks: readonly { id: string; description: string }[];
  /** Tasks Tandem sent whose outcome is unknown: the EHR may have created them (unconfirmed-task-list.tsx). */
  unconfirmedTasks: readonly { intentId: string; description: string }[];
  /** Keys of the items the clinician marked reviewed. */
  reviewed: ReadonlySet<string>;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "A", "A and B", "A, B and C". */
function listOfNames(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1) ?? ""}`;
}

const TASK_LINK_LENGTH = 48;

/** "Go to task: Call the lab about the biopsy…": enough of the description to tell tasks apart. */
function taskLinkLabel(description: string): string {
  const text = description.trim().replace(/\s+/g, " ");
  if (text.length <= TASK_LINK_LENGTH) return `Go to task: ${text || "(no description)"}`;
  const cut = text.slice(0, TASK_LINK_LENGTH - 1);
  const wordEnd = cut.lastIndexOf(" ");
  return `Go to task: ${(wordEnd > TASK_LINK_LENGTH / 2 ? cut.slice(0, wordEnd) : cut).trimEnd()}…`;
}

export function buildSignOffChecklist(input: SignOffInput): SignOffChecklist {
  const { note } = input;
  if (note.status === SIGNED_NOTE_STATUS) {
    return { state: "signed", items: [], summary: "This note is signed in the EHR: there is nothing left to prepare." };
  }
  const items: ChecklistItem[] = [];
  /** An item the clinician looks at and marks reviewed: it needs action until marked under its key. */
  const review = (item: Omit<ChecklistItem, "kind" | "needsAction">) => items.push({ ...item, kind: "review", needsAction: !input.reviewed.has(item.key) });

  if (note.status !== AWAITING_SIGN_STATUS) {
    items.push({
      key: `service:${note.status}`,
      kind: "service",
      title: `The EHR says this note is ${noteStatusText(note.status).toLowerCase()}`,
      detail: "It is not awaiting signature there yet: finish it in the EHR. Tandem shows the state the clinic data service reports, which can lag the EHR by a few minutes.",
      links: [{ targetId: "note-status", label: "Go to the note's status" }],
      needsAction: true,
    });
  }

  if (input.hasWaitingDraft) {
    items.push({
      key: "draft",
      kind: "save",
      title: "Unsaved text from earlier is waiting",
      detail: "Restore it and save, or discard it, so nothing you typed is left out of the note.",
      links: [{ targetId: DRAFT_NOTICE_ID, label: "Go to the unsaved text" }],
      needsAction: true,
    });
  }

  if (input.saveProblem !== null || input.unsavedFields.length > 0) {
    items.push({
      key: "save",
      kind: "save",
      title: input.saveProblem ?? `${plural(input.unsavedFields.length, "field has", "fields have")} unsaved changes`,
      detail: input.unsavedFields.length > 0 ? `Save ${listOfNames(input.unsavedFields.map((field) => field.label))} so the EHR has your text before you sign.` : "Settle this so the EHR has your text before you sign.",
      links:
        input.unsavedFields.length > 0
          ? input.unsavedFields.map((field) => ({ targetId: field.inputId, label: `Go to ${field.label}` }))
          : [{ targetId: "note-save-status", label: "Go to the save status" }],
      needsAction: true,
    });
  }

  const aiReview = describeAiReview(note.aiStatus, note.aiIssueCount);
  if (aiReview.needsReview) {
    review({ key: `ai:${note.aiStatus}:${note.aiIssueCount}:${note.version}`, title: aiReview.finding, detail: aiReview.advice, links: [] });
  }

  for (const section of input.emptySignerSections) {
    review({
      key: `empty:${section.id}:${note.version}`,
      title: `${section.title} is empty`,
      detail: "Signers usually fill this section. Complete it in the EHR, or confirm it is not needed for this visit.",
      links: [{ targetId: section.id, label: `Go to ${section.title}` }],
    });
  }

  // A field inside a section already listed as empty is named by that item.
  const listedSections = new Set(input.emptySignerSections.map((section) => section.id));
  const emptyFields = input.emptyFields.filter((field) => !listedSections.has(field.sectionId));
  if (emptyFields.length > 0) {
    review({
      key: `empty-fields:${emptyFields.map((field) => field.inputId).join(",")}`,
      title: `${listOfNames(emptyFields.map((field) => field.label))} ${emptyFields.length === 1 ? "is" : "are"} empty`,
      detail: "Write what the visit needs here, or confirm it can stay empty.",
      links: emptyFields.map((field) => ({ targetId: field.inputId, label: `Go to ${field.label}` })),
    });
  }

  if (input.openTasks.length > 0) {
    review({
      key: `tasks:${input.openTasks.map((task) => task.id).sort().join(",")}`,
      title: `${plural(input.openTasks.length, "task is", "tasks are")} still open`,
      detail: "Tasks created through Tandem on this note have not been completed. A note can be signed with open tasks; check that is what you want.",
      links: input.openTasks.map((task) => ({ targetId: taskElementId(task.id), label: taskLinkLabel(task.description) })),
    });
  }

  if (input.unconfirmedTasks.length > 0) {
    review({
      key: `unconfirmed-tasks:${input.unconfirmedTasks.map((task) => task.intentId).sort().join(",")}`,
      title: `${plural(input.unconfirmedTasks.length, "task is", "tasks are")} not confirmed by the EHR`,
      detail:
        input.unconfirmedTasks.length === 1
          ? "Tandem sent it and the EHR did not confirm it, so it may or may not be there. Check the note's tasks in the EHR, so that it is neither missing nor there twice."
          : "Tandem sent them and the EHR did not confirm them, so they may or may not be there. Check the note's tasks in the EHR, so that none is missing or there twice.",
      links: input.unconfirmedTasks.map((task) => ({ targetId: unconfirmedTaskElementId(task.intentId), label: taskLinkLabel(task.description) })),
    });
  }

  const pending = items.filter((item) => item.needsAction).length;
  return pending === 0
    ? { state: "ready", items, summary: "Ready to sign: the note can be signed in the EHR." }
    : { state: "not_ready", items, summary: `Not ready to sign yet: ${plural(pending, "item needs", "items need")} your attention.` };
}
