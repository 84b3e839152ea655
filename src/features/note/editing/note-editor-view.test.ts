import { describe, expect, it } from "vitest";
import type { AllWritableFieldValues } from "#contract/app-api/note.ts";
import { editorReducer, initialEditorState, SIGNED_REASON, type EditorAction, type ServerNote } from "./editor-state.ts";
import { noteEditorViewOf } from "./note-editor-view.ts";

const START: AllWritableFieldValues = {
  additionalHpiComments: "Itchy rash for two weeks.",
  impressionsPlansComments: "",
  otherExamComments: "No lymphadenopathy.",
  stickyNoteDescription: "Call back with biopsy result",
};
const note = (status = "awaiting_sign"): ServerNote => ({ values: START, version: 3, status });
const open = (server = note()) => initialEditorState({ note: server, cannotEditReason: null, draft: null, draftWhere: null });
const run = (...actions: EditorAction[]) => actions.reduce(editorReducer, open());

describe("what the note view reads of the editor", () => {
  it("is the note's text, clean and editable, on open", () => {
    const view = noteEditorViewOf(open());
    expect(view.values).toEqual(START);
    expect(view.dirtyFields).toEqual([]);
    expect(view.hasUnsavedChanges).toBe(false);
    expect(view.status).toEqual({ kind: "clean" });
    expect(view.readOnlyReason).toBeNull();
    expect(view.canType).toBe(true);
    expect(view.canSave).toBe(false);
    expect(view.conflicts).toEqual({});
    expect(view.fieldStatus).toEqual({ additionalHpiComments: "", impressionsPlansComments: "", otherExamComments: "", stickyNoteDescription: "" });
    expect(view.draftOffer).toBeNull();
    expect(view.remoteChangeNotice).toBeNull();
    expect(view.draftKept).toBeNull();
  });

  it("has the typed text, the field dirty with its status, and something to save", () => {
    const view = noteEditorViewOf(run({ type: "edited", field: "otherExamComments", value: "Warm, dry skin." }));
    expect(view.values).toEqual({ ...START, otherExamComments: "Warm, dry skin." });
    expect(view.dirtyFields).toEqual(["otherExamComments"]);
    expect(view.hasUnsavedChanges).toBe(true);
    expect(view.canSave).toBe(true);
    expect(view.fieldStatus.otherExamComments).toBe("Changed, not saved yet");
    expect(view.fieldStatus.additionalHpiComments).toBe("");
  });

  it("is read-only, with nothing to save, for a signed note", () => {
    const view = noteEditorViewOf(open(note("signed")));
    expect(view.readOnlyReason).toBe(SIGNED_REASON);
    expect(view.canType).toBe(false);
    expect(view.canSave).toBe(false);
  });
});
