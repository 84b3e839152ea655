import { describe, expect, it } from "vitest";
import type { AllWritableFieldValues } from "#contract/app-api/note.ts";
import type { WritableNoteField } from "#contract/clinic-api/note.ts";
import { isSessionCopyAcknowledged, sessionCopyOf } from "./draft-keeping.ts";
import { editorReducer, initialEditorState, sentValuesOf, saveRequestOf, type EditorAction, type EditorState } from "./editor-state.ts";

// This tab's copy of the draft (issue 35): from the keystroke until the BFF
// has acknowledged a draft holding it; never longer, never shorter.

const START: AllWritableFieldValues = { additionalHpiComments: "Low back pain.", impressionsPlansComments: "", otherExamComments: "", stickyNoteDescription: "" };
const open = (): EditorState => initialEditorState({ note: { values: START, version: 3, status: "awaiting_sign" }, cannotEditReason: null, draft: null, draftWhere: null });
const run = (state: EditorState, ...actions: EditorAction[]) => actions.reduce(editorReducer, state);
const type = (field: WritableNoteField, value: string): EditorAction => ({ type: "edited", field, value });
const SENTENCE_1 = "Low back pain. Pain began after lifting a box on Monday.";
const SENTENCE_2 = `${SENTENCE_1} No prior back injuries.`;

describe("this tab's copy of the draft", () => {
  it("is there from the first keystroke, before any request, holding the text as typed and its baseline", () => {
    expect(sessionCopyOf(open())).toBeNull();
    const typed = run(open(), type("additionalHpiComments", SENTENCE_1));
    expect(sessionCopyOf(typed)).toEqual({ fields: { additionalHpiComments: SENTENCE_1 }, baseline: { additionalHpiComments: START.additionalHpiComments }, noteVersion: 3 });
  });

  it("may go once the BFF acknowledged the revision it holds, and not while text typed since is only in the tab", () => {
    const typed = run(open(), type("additionalHpiComments", SENTENCE_1));
    const sentAt = typed.draftRevision;
    expect(isSessionCopyAcknowledged(typed, sentAt)).toBe(true);
    // Sentence 2 typed while the PUT of sentence 1 was on its way: its answer does not free the copy.
    const typedOn = run(typed, type("additionalHpiComments", SENTENCE_2));
    expect(isSessionCopyAcknowledged(typedOn, sentAt)).toBe(false);
    expect(sessionCopyOf(typedOn)?.fields.additionalHpiComments).toBe(SENTENCE_2);
    const stored = run(typedOn, { type: "draftStored", where: "bff", revision: sentAt, stored: {} });
    expect(sessionCopyOf(stored)?.fields.additionalHpiComments).toBe(SENTENCE_2);
    // Its own PUT's answer does.
    const storedAll = run(stored, { type: "draftStored", where: "bff", revision: typedOn.draftRevision, stored: {} });
    expect(isSessionCopyAcknowledged(storedAll, typedOn.draftRevision)).toBe(true);
    expect(sessionCopyOf(storedAll)).toBeNull();
  });

  it("stays while the BFF cannot be reached, and is needed no more once nothing is unsaved", () => {
    const typed = run(open(), type("additionalHpiComments", SENTENCE_1));
    const inTab = run(typed, { type: "draftStored", where: "session", revision: typed.draftRevision, cause: "unreached" });
    expect(sessionCopyOf(inTab)?.fields.additionalHpiComments).toBe(SENTENCE_1);
    const request = saveRequestOf(inTab);
    if (request === null) throw new Error("nothing to save");
    const saved = run(inTab, { type: "saveStarted", sent: sentValuesOf(request) }, { type: "saveSucceeded", note: { values: { ...START, additionalHpiComments: SENTENCE_1 }, version: 4, status: "awaiting_sign" }, atMs: 0 });
    expect(sessionCopyOf(saved)).toBeNull();
  });
});
