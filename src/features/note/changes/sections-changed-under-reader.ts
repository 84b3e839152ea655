import type { Note } from "#contract/clinic-api/note.ts";
import { canonicalJson, NOTE_SECTION_KEYS, sectionContents, type NoteSectionKey } from "#contract/note/section-digests.ts";

// The read-only text of a section changed under the reader (issue 35 item
// 3), as changes-under-reader.ts does for the four writable fields: a note
// read while the reader looks brings other content for a section, and the
// section is marked with the note as it was on screen just before, to show
// what it replaced. Tandem writes none of this content (a section's writable
// field is left out, contract/note/section-digests.ts), so every such change
// is the EHR's; a section changed twice shows what the reader last saw.

export interface SectionChangeMark {
  /** The note on screen just before the latest change of this section. */
  replaced: Note;
  /** When the change reached the screen. */
  seenAtMs: number;
}

export type SectionChangeMarks = Readonly<Partial<Record<NoteSectionKey, SectionChangeMark>>>;

export const NO_SECTION_CHANGE_MARKS: SectionChangeMarks = {};

/** The sections whose content (the writable field left out) differs between two notes on screen, in note order. */
export function sectionsChangedUnderReader(before: Note, after: Note): NoteSectionKey[] {
  if (before === after) return [];
  const was = sectionContents(before.soapNote);
  const now = sectionContents(after.soapNote);
  return NOTE_SECTION_KEYS.filter((key) => canonicalJson(was[key]) !== canonicalJson(now[key]));
}

/** The marks once the note on screen went from `before` to `after`; the same object when no section changed. */
export function sectionMarksAfter(marks: SectionChangeMarks, before: Note, after: Note, seenAtMs: number): SectionChangeMarks {
  const changed = sectionsChangedUnderReader(before, after);
  if (changed.length === 0) return marks;
  const next: Partial<Record<NoteSectionKey, SectionChangeMark>> = { ...marks };
  for (const key of changed) next[key] = { replaced: before, seenAtMs };
  return next;
}

/** The marks without this section's (the reader dismissed it). */
export function dismissSectionMark(marks: SectionChangeMarks, key: NoteSectionKey): SectionChangeMarks {
  if (marks[key] === undefined) return marks;
  const next: Partial<Record<NoteSectionKey, SectionChangeMark>> = { ...marks };
  delete next[key];
  return next;
}
