import type { Note } from "#contract/clinic-api/note.ts";
import { emptySectionIds, NOTE_SECTIONS } from "./reading/note-sections.ts";

// Every part of the note view, top to bottom, for the "On this note"
// navigation (ADR 0008 "On this note"): the summary, the sign-off panel, each
// section of the EHR note, then the tasks and images, which sit at the foot of
// a long page. Each entry's id is the element it goes to.

export const SUMMARY_ID = "section-summary";
export const SIGN_OFF_ID = "section-sign-off";
export const TASKS_ID = "section-tasks";
export const IMAGES_ID = "section-images";

/** The id of a task's row in the task panel. */
export function taskElementId(taskId: string): string {
  return `task-${taskId}`;
}

/** The id of a task the EHR has not confirmed, in the task panel (by its write's id). */
export function unconfirmedTaskElementId(intentId: string): string {
  return `unconfirmed-task-${intentId}`;
}

export interface NoteOutlineEntry {
  id: string;
  title: string;
  /** Said after the title: "(empty)", "(none)", "(3)"; null when there is nothing to add or it is not known yet. */
  marker: string | null;
  /** Nothing to read there: shown quieter. */
  isEmpty: boolean;
}

export interface NoteOutline {
  entries: NoteOutlineEntry[];
  /** "19 of 20 sections with content". */
  summary: string;
}

/** Counts are null while their list loads or when it could not be read. */
export interface NoteOutlineCounts {
  tasks: number | null;
  images: number | null;
}

/** The tasks the panel lists: those created and those the EHR has not confirmed (it may have them); null while not read. */
export const listedTaskCount = (answer: { tasks: readonly unknown[]; unconfirmed: readonly unknown[] } | undefined): number | null => (answer ? answer.tasks.length + answer.unconfirmed.length : null);

function countedEntry(id: string, title: string, count: number | null): NoteOutlineEntry {
  if (count === null) return { id, title, marker: null, isEmpty: false };
  return { id, title, marker: count === 0 ? "(none)" : `(${count})`, isEmpty: count === 0 };
}

export function buildNoteOutline(note: Note, counts: NoteOutlineCounts): NoteOutline {
  const empty = new Set(emptySectionIds(note));
  const sections = NOTE_SECTIONS.map((section) => {
    const isEmpty = empty.has(section.id);
    return { id: section.id, title: section.title, marker: isEmpty ? "(empty)" : null, isEmpty };
  });
  return {
    entries: [
      { id: SUMMARY_ID, title: "Summary", marker: null, isEmpty: false },
      { id: SIGN_OFF_ID, title: "Ready to sign", marker: null, isEmpty: false },
      ...sections,
      countedEntry(TASKS_ID, "Tasks", counts.tasks),
      countedEntry(IMAGES_ID, "Images", counts.images),
    ],
    summary: `${NOTE_SECTIONS.length - empty.size} of ${NOTE_SECTIONS.length} sections with content`,
  };
}
