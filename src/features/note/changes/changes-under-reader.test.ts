import { describe, expect, it } from "vitest";
import type { AllWritableFieldValues } from "#contract/app-api/note.ts";
import type { WritableNoteField } from "#contract/clinic-api/note.ts";
import { editorReducer, initialEditorState, saveRequestOf, sentValuesOf, type EditorAction, type EditorState, type ServerNote } from "../editing/editor-state.ts";
import { noteEditorViewOf } from "../editing/note-editor-view.ts";
import { changeAnnouncement, dismissMark, marksAfter, NO_CHANGE_MARKS, shownFieldsOf, type ChangeMarks, type ShownFields } from "./changes-under-reader.ts";

const START: AllWritableFieldValues = {
  additionalHpiComments: "Itchy rash for two weeks.",
  impressionsPlansComments: "",
  otherExamComments: "No lymphadenopathy.",
  stickyNoteDescription: "Call back with biopsy result",
};
const FIRST_SEEN = Date.parse("2026-12-01T14:05:00.000Z");
const LATER = Date.parse("2026-12-01T14:06:20.000Z");

const shown = (values: Partial<AllWritableFieldValues> = {}, editing: WritableNoteField[] = []): ShownFields => shownFieldsOf({ ...START, ...values }, editing);

describe("marksAfter: what is marked", () => {
  it("marks a field whose text changed while the reader was not editing it, with the text it replaced and when", () => {
    const marks = marksAfter(NO_CHANGE_MARKS, shown(), shown({ otherExamComments: "Two small nodes, left neck." }), FIRST_SEEN);
    expect(marks).toEqual({ otherExamComments: { replaced: "No lymphadenopathy.", seenAtMs: FIRST_SEEN, savedInAnotherTab: false } });
  });

  it("marks each field that changed, and keeps earlier marks", () => {
    const first = marksAfter(NO_CHANGE_MARKS, shown(), shown({ otherExamComments: "Two small nodes." }), FIRST_SEEN);
    const both = marksAfter(first, shown({ otherExamComments: "Two small nodes." }), shown({ otherExamComments: "Two small nodes.", stickyNoteDescription: "", impressionsPlansComments: "Biopsy." }), LATER);
    expect(both).toEqual({
      otherExamComments: { replaced: "No lymphadenopathy.", seenAtMs: FIRST_SEEN, savedInAnotherTab: false },
      impressionsPlansComments: { replaced: "", seenAtMs: LATER, savedInAnotherTab: false },
      stickyNoteDescription: { replaced: "Call back with biopsy result", seenAtMs: LATER, savedInAnotherTab: false },
    });
  });

  it("a field changed twice shows the text the reader last saw: the one on screen before the latest change", () => {
    const once = marksAfter(NO_CHANGE_MARKS, shown(), shown({ otherExamComments: "Second text." }), FIRST_SEEN);
    const twice = marksAfter(once, shown({ otherExamComments: "Second text." }), shown({ otherExamComments: "Third text." }), LATER);
    expect(twice.otherExamComments).toEqual({ replaced: "Second text.", seenAtMs: LATER, savedInAnotherTab: false });
  });

  it("never marks a field the reader is editing, nor the moment they start or stop", () => {
    expect(marksAfter(NO_CHANGE_MARKS, shown({}, ["otherExamComments"]), shown({ otherExamComments: "x" }, ["otherExamComments"]), FIRST_SEEN)).toBe(NO_CHANGE_MARKS);
    expect(marksAfter(NO_CHANGE_MARKS, shown(), shown({ otherExamComments: "typed" }, ["otherExamComments"]), FIRST_SEEN)).toBe(NO_CHANGE_MARKS);
    expect(marksAfter(NO_CHANGE_MARKS, shown({ otherExamComments: "typed" }, ["otherExamComments"]), shown({ otherExamComments: "typed, saved" }), FIRST_SEEN)).toBe(NO_CHANGE_MARKS);
  });

  it("returns the same marks when nothing changed", () => {
    const marks: ChangeMarks = { stickyNoteDescription: { replaced: "old", seenAtMs: FIRST_SEEN, savedInAnotherTab: false } };
    expect(marksAfter(marks, shown(), shown(), LATER)).toBe(marks);
  });
});

describe("marksAfter: the reader's own save in another tab", () => {
  it("marks a field whose new text the reader saved in another tab as theirs, and another field changed with it as the EHR's", () => {
    const after = shown({ additionalHpiComments: "Typed in the other tab.", stickyNoteDescription: "Changed in the EHR." });
    const isOwnSave = (field: WritableNoteField, text: string) => field === "additionalHpiComments" && text === "Typed in the other tab.";
    expect(marksAfter(NO_CHANGE_MARKS, shown(), after, FIRST_SEEN, isOwnSave)).toEqual({
      additionalHpiComments: { replaced: START.additionalHpiComments, seenAtMs: FIRST_SEEN, savedInAnotherTab: true },
      stickyNoteDescription: { replaced: START.stickyNoteDescription, seenAtMs: FIRST_SEEN, savedInAnotherTab: false },
    });
  });
});

describe("marksAfter: a field the reader types in", () => {
  const ownSave: ChangeMarks = { additionalHpiComments: { replaced: "Before.", seenAtMs: FIRST_SEEN, savedInAnotherTab: true } };
  const ehrChange: ChangeMarks = { additionalHpiComments: { replaced: "Before.", seenAtMs: FIRST_SEEN, savedInAnotherTab: false } };

  it("loses the mark of the reader's own save in another tab", () => {
    const typing = shown({ additionalHpiComments: `${START.additionalHpiComments} More.` }, ["additionalHpiComments"]);
    expect(marksAfter(ownSave, shown(), typing, LATER)).toEqual({});
  });

  it("keeps the mark of a change made in the EHR, and an own save's mark on a field not typed in", () => {
    const typing = shown({ additionalHpiComments: `${START.additionalHpiComments} More.` }, ["additionalHpiComments"]);
    expect(marksAfter(ehrChange, shown(), typing, LATER)).toBe(ehrChange);
    expect(marksAfter(ownSave, shown(), shown({ otherExamComments: "Typed." }, ["otherExamComments"]), LATER)).toBe(ownSave);
  });
});

describe("dismissMark", () => {
  it("takes one field's mark away and leaves the others", () => {
    const marks: ChangeMarks = { stickyNoteDescription: { replaced: "old", seenAtMs: FIRST_SEEN, savedInAnotherTab: false }, otherExamComments: { replaced: "", seenAtMs: FIRST_SEEN, savedInAnotherTab: false } };
    expect(dismissMark(marks, "stickyNoteDescription")).toEqual({ otherExamComments: { replaced: "", seenAtMs: FIRST_SEEN, savedInAnotherTab: false } });
    expect(dismissMark(marks, "additionalHpiComments")).toBe(marks);
  });
});

// The marks as the note view keeps them: each screen of the real editor (its
// values and dirty fields after every action) against the one before.
describe("the editor's screens, one action after another", () => {
  const note = (values: Partial<AllWritableFieldValues>, version: number, status = "awaiting_sign"): ServerNote => ({ values: { ...START, ...values }, version, status });
  const read = (values: Partial<AllWritableFieldValues>, version: number, status?: string): EditorAction => ({ type: "noteRead", note: note(values, version, status) });
  const screenOf = (state: EditorState) => {
    const view = noteEditorViewOf(state);
    return shownFieldsOf(view.values, view.dirtyFields);
  };

  /** Runs the actions as the note view would see them, one screen at a time; `at` stamps every change. */
  function marksThrough(start: EditorState, actions: readonly (EditorAction | ((state: EditorState) => EditorAction))[], at = FIRST_SEEN) {
    let state = start;
    let marks = NO_CHANGE_MARKS;
    for (const action of actions) {
      const next = editorReducer(state, typeof action === "function" ? action(state) : action);
      marks = marksAfter(marks, screenOf(state), screenOf(next), at);
      state = next;
    }
    return { state, marks };
  }
  const open = (status = "awaiting_sign", cannotEditReason: string | null = null) => initialEditorState({ note: note({}, 3, status), cannotEditReason, draft: null, draftWhere: null });
  const startSave = (state: EditorState): EditorAction => {
    const request = saveRequestOf(state);
    if (request === null) throw new Error("nothing to save");
    return { type: "saveStarted", sent: sentValuesOf(request) };
  };

  it("a re-read that changes a field the reader is only reading marks it", () => {
    const { state, marks } = marksThrough(open(), [read({ otherExamComments: "Two small nodes, left neck." }, 4)]);
    expect(state.fields.otherExamComments.value).toBe("Two small nodes, left neck.");
    expect(marks).toEqual({ otherExamComments: { replaced: "No lymphadenopathy.", seenAtMs: FIRST_SEEN, savedInAnotherTab: false } });
  });

  it("a field being edited is never replaced and never marked: it is a conflict to decide", () => {
    const { state, marks } = marksThrough(open(), [{ type: "edited", field: "otherExamComments", value: "Mine." }, read({ otherExamComments: "Theirs." }, 4)]);
    expect(state.fields.otherExamComments.value).toBe("Mine.");
    expect(noteEditorViewOf(state).conflicts.otherExamComments).toEqual({ mine: "Mine.", theirs: "Theirs." });
    expect(marks).toEqual({});
    // Taking the EHR's text is the reader's own choice: no mark either.
    const chosen = marksThrough(state, [{ type: "conflictResolved", field: "otherExamComments", choice: "theirs" }]);
    expect(chosen.state.fields.otherExamComments.value).toBe("Theirs.");
    expect(chosen.marks).toEqual({});
  });

  it("the reader's own save is not a change under them, while another field changed in the same answer is", () => {
    const { marks } = marksThrough(open(), [
      { type: "edited", field: "stickyNoteDescription", value: "Call the son." },
      startSave,
      { type: "saveSucceeded", note: note({ stickyNoteDescription: "Call the son.", otherExamComments: "Changed in the EHR meanwhile." }, 5), atMs: LATER },
      // The live event's re-read brings the same note again.
      read({ stickyNoteDescription: "Call the son.", otherExamComments: "Changed in the EHR meanwhile." }, 5),
    ]);
    expect(marks).toEqual({ otherExamComments: { replaced: "No lymphadenopathy.", seenAtMs: FIRST_SEEN, savedInAnotherTab: false } });
  });

  it("a field saved by the reader and changed afterwards in the EHR is marked with the reader's text", () => {
    const { marks } = marksThrough(open(), [
      { type: "edited", field: "stickyNoteDescription", value: "Call the son." },
      startSave,
      { type: "saveSucceeded", note: note({ stickyNoteDescription: "Call the son." }, 4), atMs: LATER },
      read({ stickyNoteDescription: "Call the daughter." }, 5),
    ]);
    expect(marks).toEqual({ stickyNoteDescription: { replaced: "Call the son.", seenAtMs: FIRST_SEEN, savedInAnotherTab: false } });
  });

  it("marks fields of a note the reader cannot change (read-only text) too", () => {
    const { marks } = marksThrough(open("awaiting_sign", "Your role cannot change notes in Tandem."), [read({ additionalHpiComments: "Rash since March." }, 4)]);
    expect(marks).toEqual({ additionalHpiComments: { replaced: "Itchy rash for two weeks.", seenAtMs: FIRST_SEEN, savedInAnotherTab: false } });
  });

  it("an older read overtaken by a newer one changes nothing on screen, so it marks nothing", () => {
    const { marks } = marksThrough(open(), [read({ otherExamComments: "Newer." }, 5), read({ otherExamComments: "Older." }, 4)]);
    expect(marks).toEqual({ otherExamComments: { replaced: "No lymphadenopathy.", seenAtMs: FIRST_SEEN, savedInAnotherTab: false } });
  });
});

describe("changeAnnouncement", () => {
  it("names the fields that changed, in one sentence", () => {
    expect(changeAnnouncement([])).toBe("");
    expect(changeAnnouncement(["Other exam comments"])).toBe("Other exam comments was changed in the EHR just now.");
    expect(changeAnnouncement(["Other exam comments", "Sticky note"])).toBe("Other exam comments and Sticky note were changed in the EHR just now.");
    expect(changeAnnouncement(["Additional HPI comments", "Other exam comments", "Sticky note"])).toBe("Additional HPI comments, Other exam comments and Sticky note were changed in the EHR just now.");
  });

  it("tells the reader's own saves in another tab apart from the EHR's changes", () => {
    expect(changeAnnouncement([], ["Additional HPI comments"])).toBe("Additional HPI comments was saved by you in another tab just now.");
    expect(changeAnnouncement(["Sticky note"], ["Additional HPI comments", "Other exam comments"])).toBe(
      "Sticky note was changed in the EHR just now. Additional HPI comments and Other exam comments were saved by you in another tab just now.",
    );
  });
});
