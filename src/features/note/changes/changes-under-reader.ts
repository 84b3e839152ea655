import { WRITABLE_NOTE_FIELDS, type WritableNoteField } from "#contract/clinic-api/note.ts";

// A field whose text changes under the reader (issue 35 item 3). The open
// note is re-read every 20 s, on focus and after a live event
// (src/api/note-queries.ts), and a field the reader is not editing follows
// the note at once (editing/editor-state.ts). Such a change is marked at the
// field, with the text it replaced, until the reader dismisses the mark or
// leaves the note (the marks live in the open note's view only).
//
// What counts: a field shown untouched before and after, whose text on
// screen changed. The reader's own doing never does: typing makes a field
// touched (dirty), their saved text is already on screen when the save's
// answer comes, and a field being edited keeps the typed text whatever the
// EHR does (the Keep mine / Use the EHR's choice decides it). Their save in
// another tab of theirs does count, and is told as theirs
// (saved-in-another-tab.ts), not as the EHR's doing. A field marked
// and changed again shows the text on screen just before the latest change,
// the one the reader last saw; a change the reader never saw (two edits in
// the EHR between two reads) does not appear.

export interface ShownField {
  /** The text in the field on screen. */
  text: string;
  /** The reader has typed in it and not saved (the editor's dirty field). */
  isEditing: boolean;
}

export type ShownFields = Readonly<Record<WritableNoteField, ShownField>>;

export interface ChangeMark {
  /** The text on screen just before the latest change. */
  replaced: string;
  /** The latest change is the reader's own save, in another tab (saved-in-another-tab.ts), not the EHR's doing. */
  savedInAnotherTab: boolean;
  /** When the change reached the screen. */
  seenAtMs: number;
}

export type ChangeMarks = Readonly<Partial<Record<WritableNoteField, ChangeMark>>>;

export const NO_CHANGE_MARKS: ChangeMarks = {};

/** What the fields show, from the editor's values and its dirty fields. */
export function shownFieldsOf(values: Readonly<Record<WritableNoteField, string>>, editing: readonly WritableNoteField[]): ShownFields {
  const shown = (field: WritableNoteField): ShownField => ({ text: values[field], isEditing: editing.includes(field) });
  return {
    additionalHpiComments: shown("additionalHpiComments"),
    impressionsPlansComments: shown("impressionsPlansComments"),
    otherExamComments: shown("otherExamComments"),
    stickyNoteDescription: shown("stickyNoteDescription"),
  };
}

/** The fields whose text changed under the reader between two screens, in note order. */
export function fieldsChangedUnderReader(before: ShownFields, after: ShownFields): WritableNoteField[] {
  return WRITABLE_NOTE_FIELDS.filter((field) => !before[field].isEditing && !after[field].isEditing && before[field].text !== after[field].text);
}

/** Whether the reader saved this text into this field in another tab (saved-in-another-tab.ts). */
export type OwnSaveCheck = (field: WritableNoteField, text: string) => boolean;

/** The marks once the screen went from `before` to `after`; the same object when nothing changed under the reader. */
export function marksAfter(marks: ChangeMarks, before: ShownFields, after: ShownFields, seenAtMs: number, isOwnSave: OwnSaveCheck = () => false): ChangeMarks {
  const changed = fieldsChangedUnderReader(before, after);
  // The reader's own save in another tab is no news once they type in that field here; a change made in the EHR
  // stays marked, with the text it replaced, until dismissed.
  const typedOver = WRITABLE_NOTE_FIELDS.filter((field) => after[field].isEditing && marks[field]?.savedInAnotherTab === true);
  if (changed.length === 0 && typedOver.length === 0) return marks;
  const next: Partial<Record<WritableNoteField, ChangeMark>> = { ...marks };
  for (const field of typedOver) delete next[field];
  for (const field of changed) next[field] = { replaced: before[field].text, seenAtMs, savedInAnotherTab: isOwnSave(field, after[field].text) };
  return next;
}

/** The marks without this field's (the reader dismissed it). */
export function dismissMark(marks: ChangeMarks, field: WritableNoteField): ChangeMarks {
  if (marks[field] === undefined) return marks;
  const next: Partial<Record<WritableNoteField, ChangeMark>> = { ...marks };
  delete next[field];
  return next;
}

const namesOf = (labels: readonly string[]) => (labels.length === 1 ? labels.join("") : `${labels.slice(0, -1).join(", ")} and ${labels.at(-1) ?? ""}`);

/**
 * What a screen reader is told, politely, when fields change under the reader: "Other exam comments was changed in
 * the EHR just now." `savedInAnotherTab`: those the reader saved in another tab, told apart.
 */
export function changeAnnouncement(labels: readonly string[], savedInAnotherTab: readonly string[] = []): string {
  const sentences: string[] = [];
  if (labels.length > 0) sentences.push(`${namesOf(labels)} ${labels.length === 1 ? "was" : "were"} changed in the EHR just now.`);
  if (savedInAnotherTab.length > 0) sentences.push(`${namesOf(savedInAnotherTab)} ${savedInAnotherTab.length === 1 ? "was" : "were"} saved by you in another tab just now.`);
  return sentences.join(" ");
}
