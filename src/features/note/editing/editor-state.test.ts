import { describe, expect, it } from "vitest";
import type { AllWritableFieldValues, NoteConflictDetails, NoteDraftBody } from "#contract/app-api/note.ts";
import type { WritableNoteField } from "#contract/clinic-api/note.ts";
import {
  canAutosave,
  canTypeIn,
  conflictsOf,
  dirtyFieldsOf,
  draftBodyOf,
  draftKeptOf,
  draftUnkeptText,
  draftOfferOf,
  draftTextOf,
  editorReducer,
  fieldStatusText,
  initialEditorState,
  saveWaitingForTandem,
  needsDraftRelease,
  draftReleaseOf,
  needsDraftPut,
  offeredDraftToKeep,
  readOnlyReasonOf,
  saveRequestOf,
  saveRetryDelayMs,
  sentValuesOf,
  SIGNED_REASON,
  SIGNED_WITH_TEXT_REASON,
  statusOf,
  statusText,
  type EditorAction,
  type EditorState,
  type ServerNote,
} from "./editor-state.ts";

const START: AllWritableFieldValues = {
  additionalHpiComments: "Itchy rash for two weeks.",
  impressionsPlansComments: "",
  otherExamComments: "No lymphadenopathy.",
  stickyNoteDescription: "Call back with biopsy result",
};
const note = (values: Partial<AllWritableFieldValues> = {}, version = 3, status = "awaiting_sign"): ServerNote => ({ values: { ...START, ...values }, version, status });
const SAVED_AT = Date.parse("2026-12-01T17:04:00.000Z");
const clock = (ms: number) => new Date(ms).toISOString().slice(11, 16);
const labelOf = (field: WritableNoteField) => field;

function open(overrides: { note?: ServerNote; draft?: NoteDraftBody | null; cannotEditReason?: string | null } = {}): EditorState {
  return initialEditorState({ note: overrides.note ?? note(), cannotEditReason: overrides.cannotEditReason ?? null, draft: overrides.draft ?? null, draftWhere: overrides.draft ? "bff" : null });
}
const run = (state: EditorState, ...actions: EditorAction[]) => actions.reduce(editorReducer, state);
const type = (field: WritableNoteField, value: string): EditorAction => ({ type: "edited", field, value });
/** Starts the save the hook would send now. */
function startSave(state: EditorState): EditorState {
  const request = saveRequestOf(state);
  if (request === null) throw new Error("nothing to save");
  return run(state, { type: "saveStarted", sent: sentValuesOf(request) });
}
const conflict = (reason: NoteConflictDetails["reason"], current: Partial<AllWritableFieldValues>, conflictingFields: WritableNoteField[], noteVersion = 4): EditorAction => ({
  type: "saveConflict",
  details: { reason, current: { ...START, ...current }, conflictingFields, noteStatus: reason === "note_signed" ? "signed" : "awaiting_sign", noteVersion },
});

describe("opening a note", () => {
  it("starts clean, editable, with nothing to save or keep", () => {
    const state = open();
    expect(dirtyFieldsOf(state)).toEqual([]);
    expect(statusOf(state)).toEqual({ kind: "clean" });
    expect(statusText(statusOf(state), clock)).toBe("No unsaved changes");
    expect(readOnlyReasonOf(state)).toBeNull();
    expect(canTypeIn(state)).toBe(true);
    expect(saveRequestOf(state)).toBeNull();
    expect(needsDraftPut(state)).toBe(false);
    expect(needsDraftRelease(state)).toBe(false);
  });

  it("is read-only when the note is already signed", () => {
    const state = run(open({ note: note({}, 3, "signed") }), type("otherExamComments", "typed"));
    expect(readOnlyReasonOf(state)).toBe(SIGNED_REASON);
    expect(state.fields.otherExamComments.value).toBe(START.otherExamComments);
    expect(statusText(statusOf(state), clock)).toBe(`Read-only: ${SIGNED_REASON}`);
    expect(fieldStatusText(state, "otherExamComments")).toBe("Read-only");
  });

  it("is read-only with the given reason when the user cannot edit, and follows a change of permission", () => {
    const state = open({ cannotEditReason: "Front-desk staff cannot change notes." });
    expect(readOnlyReasonOf(state)).toBe("Front-desk staff cannot change notes.");
    const allowed = run(state, { type: "permissionChanged", cannotEditReason: null });
    expect(readOnlyReasonOf(allowed)).toBeNull();
    expect(canTypeIn(allowed)).toBe(true);
  });
});

describe("typing", () => {
  it("marks the field dirty and saves only the changed fields with their baseline", () => {
    const state = run(open(), type("additionalHpiComments", "Itchy rash for three weeks."));
    expect(dirtyFieldsOf(state)).toEqual(["additionalHpiComments"]);
    expect(statusOf(state)).toEqual({ kind: "unsaved", count: 1, lastSavedAtMs: null });
    expect(statusText(statusOf(state), clock)).toBe("Unsaved changes");
    expect(fieldStatusText(state, "additionalHpiComments")).toBe("Changed, not saved yet");
    expect(fieldStatusText(state, "otherExamComments")).toBe("");
    expect(saveRequestOf(state)).toEqual({ additionalHpiComments: "Itchy rash for three weeks.", baseline: { additionalHpiComments: START.additionalHpiComments } });
    expect(draftBodyOf(state)).toEqual({ fields: { additionalHpiComments: "Itchy rash for three weeks." }, baseline: { additionalHpiComments: START.additionalHpiComments }, noteVersion: 3 });
    expect(canAutosave(state)).toBe(true);
    expect(needsDraftPut(state)).toBe(true);
  });

  it("bumps the change and draft revisions on each keystroke, and typing the original text back leaves nothing to save", () => {
    const first = run(open(), type("stickyNoteDescription", "Call back"));
    const second = run(first, type("stickyNoteDescription", "Call back today"));
    expect(second.changeRevision).toBe(first.changeRevision + 1);
    expect(second.draftRevision).toBe(first.draftRevision + 1);
    const back = run(second, type("stickyNoteDescription", START.stickyNoteDescription));
    expect(dirtyFieldsOf(back)).toEqual([]);
    expect(saveRequestOf(back)).toBeNull();
  });
});

describe("saving", () => {
  it("says Saving… while in flight and Saved with the time only after the service confirms", () => {
    const typed = run(open(), type("otherExamComments", "Mild erythema."));
    const saving = startSave(typed);
    expect(statusOf(saving)).toEqual({ kind: "saving", count: 1 });
    expect(statusText(statusOf(saving), clock)).toBe("Saving…");
    expect(fieldStatusText(saving, "otherExamComments")).toBe("Saving…");
    expect(saveRequestOf(saving)).toBeNull(); // one save at a time
    expect(dirtyFieldsOf(saving)).toEqual(["otherExamComments"]); // not saved until confirmed

    const saved = run(saving, { type: "saveSucceeded", note: note({ otherExamComments: "Mild erythema." }, 4), atMs: SAVED_AT });
    expect(dirtyFieldsOf(saved)).toEqual([]);
    expect(saved.fields.otherExamComments).toEqual({ baseline: "Mild erythema.", value: "Mild erythema." });
    expect(saved.noteVersion).toBe(4);
    expect(statusOf(saved)).toEqual({ kind: "saved", atMs: SAVED_AT });
    expect(statusText(statusOf(saved), clock)).toBe("Saved 17:04");
    expect(saved.remoteChange).toBeNull();
  });

  it("keeps text typed during a save dirty, against the saved text as its new baseline", () => {
    const saving = startSave(run(open(), type("otherExamComments", "Mild erythema")));
    const typedMore = run(saving, type("otherExamComments", "Mild erythema of both forearms."), type("stickyNoteDescription", "Biopsy sent"));
    expect(fieldStatusText(typedMore, "otherExamComments")).toBe("Changed, not saved yet");

    const saved = run(typedMore, { type: "saveSucceeded", note: note({ otherExamComments: "Mild erythema" }, 4), atMs: SAVED_AT });
    expect(saved.fields.otherExamComments).toEqual({ baseline: "Mild erythema", value: "Mild erythema of both forearms." });
    expect(saved.fields.stickyNoteDescription).toEqual({ baseline: START.stickyNoteDescription, value: "Biopsy sent" });
    expect(statusOf(saved)).toEqual({ kind: "unsaved", count: 2, lastSavedAtMs: SAVED_AT });
    expect(conflictsOf(saved)).toEqual({});
    expect(saved.remoteChange).toBeNull();
    expect(saveRequestOf(saved)).toEqual({
      otherExamComments: "Mild erythema of both forearms.",
      stickyNoteDescription: "Biopsy sent",
      baseline: { otherExamComments: "Mild erythema", stickyNoteDescription: START.stickyNoteDescription },
    });
  });

  it("treats typing back to the note's text during a save as a change to save next", () => {
    const saving = startSave(run(open(), type("otherExamComments", "Changed")));
    const typedBack = run(saving, type("otherExamComments", START.otherExamComments));
    const saved = run(typedBack, { type: "saveSucceeded", note: note({ otherExamComments: "Changed" }, 4), atMs: SAVED_AT });
    expect(saved.fields.otherExamComments).toEqual({ baseline: "Changed", value: START.otherExamComments });
    expect(dirtyFieldsOf(saved)).toEqual(["otherExamComments"]);
  });

  it("keeps the text and offers Retry when the EHR did not answer", () => {
    const saving = startSave(run(open(), type("impressionsPlansComments", "Start topical steroid.")));
    const failed = run(saving, { type: "saveFailed", failure: { kind: "system", reason: "ehr" } });
    expect(failed.fields.impressionsPlansComments.value).toBe("Start topical steroid.");
    expect(statusOf(failed)).toEqual({ kind: "failed", failure: { kind: "system", reason: "ehr" }, count: 1 });
    expect(statusText(statusOf(failed), clock)).toBe("Not saved: the EHR did not answer");
    expect(fieldStatusText(failed, "impressionsPlansComments")).toBe("Not saved: the EHR did not answer");
    expect(saveRequestOf(failed)).toEqual({ impressionsPlansComments: "Start topical steroid.", baseline: { impressionsPlansComments: "" } });
    expect(needsDraftPut(failed)).toBe(true);
  });

  it("says the service was busy, or that a save with no answer in time may be saved already, and offers Retry for both", () => {
    const typed = startSave(run(open(), type("impressionsPlansComments", "Start topical steroid.")));
    const busy = run(typed, { type: "saveFailed", failure: { kind: "system", reason: "busy", retryAfterSeconds: 12 } });
    expect(statusText(statusOf(busy), clock)).toBe("Not saved yet: the clinic data service is busy; Tandem tries again in 12 seconds");
    expect(saveRetryDelayMs(busy)).toBe(12_000);
    // The service did not say when: Tandem waits 10 s, and says so.
    const busyUnsaid = run(typed, { type: "saveFailed", failure: { kind: "system", reason: "busy" } });
    expect(fieldStatusText(busyUnsaid, "impressionsPlansComments")).toBe("Not saved yet: the clinic data service is busy; Tandem tries again in 10 seconds");
    expect(saveRetryDelayMs(busyUnsaid)).toBe(10_000);
    // Its tries spent, a save the EHR did not confirm waits for Retry or more typing.
    const unconfirmed = run(typed, { type: "saveFailed", failure: { kind: "system", reason: "unconfirmed" } });
    expect(saveRetryDelayMs(unconfirmed)).toBeNull();
    expect(statusText(statusOf(unconfirmed), clock)).toBe("Not confirmed: the EHR did not confirm the save, so your text may be saved already");
    expect(fieldStatusText(unconfirmed, "impressionsPlansComments")).toBe("Not confirmed: the EHR did not confirm the save, so your text may be saved already");
    // The same text again: harmless if the first save went through.
    expect(saveRequestOf(unconfirmed)).toEqual({ impressionsPlansComments: "Start topical steroid.", baseline: { impressionsPlansComments: "" } });
  });

  it("a save the EHR or the service failed or did not confirm says when Tandem sends it again by itself; Tandem's own trouble keeps Retry", () => {
    const typed = startSave(run(open(), type("impressionsPlansComments", "Start topical steroid.")));
    const failedWith = (reason: "ehr" | "service" | "unconfirmed" | "tandem", retryAfterSeconds: number) => run(typed, { type: "saveFailed", failure: { kind: "system", reason, retryAfterSeconds } });
    expect(statusText(statusOf(failedWith("ehr", 5)), clock)).toBe("Not saved: the EHR did not answer; Tandem tries again in 5 seconds");
    expect(saveRetryDelayMs(failedWith("ehr", 5))).toBe(5_000);
    expect(statusText(statusOf(failedWith("service", 15)), clock)).toBe("Not saved: the clinic data service did not answer; Tandem tries again in 15 seconds");
    expect(fieldStatusText(failedWith("unconfirmed", 45), "impressionsPlansComments")).toBe("Not confirmed: the EHR did not confirm the save, so your text may be saved already; Tandem tries again in 45 seconds");
    expect(saveRetryDelayMs(failedWith("unconfirmed", 45))).toBe(45_000);
    // Tandem's store: a wait the answer gave is not a promise to send it again.
    expect(statusText(statusOf(failedWith("tandem", 1)), clock)).toBe("Not saved: Tandem's server is having trouble");
    expect(saveRetryDelayMs(failedWith("tandem", 1))).toBeNull();
  });

  it("names the system that failed: Tandem's server (its database, or not reached) and the clinic data service are not called the EHR", () => {
    const typed = startSave(run(open(), type("impressionsPlansComments", "Start topical steroid.")));
    const textOf = (reason: "tandem" | "restarting" | "unreached" | "inactive" | "service") => statusText(statusOf(run(typed, { type: "saveFailed", failure: { kind: "system", reason } })), clock);
    expect(textOf("tandem")).toBe("Not saved: Tandem's server is having trouble");
    expect(textOf("restarting")).toBe("Not saved yet: Tandem's server is restarting; your text will be saved when Tandem is back");
    expect(textOf("unreached")).toBe("Not saved yet: Tandem's server is not answering; your text will be saved when Tandem is back");
    expect(textOf("inactive")).toBe("Not saved yet: Tandem is not active for this organization; your text will be saved once it is active again");
    expect(textOf("service")).toBe("Not saved: the clinic data service did not answer");
    const failed = run(typed, { type: "saveFailed", failure: { kind: "system", reason: "tandem" } });
    // What happened to the write stays the same: the text is kept, to save again.
    expect(failed.fields.impressionsPlansComments.value).toBe("Start topical steroid.");
    expect(needsDraftPut(failed)).toBe(true);
  });

  it("sends a save that met Tandem's server restarting, unreachable or inactive again by itself, and no other failed save", () => {
    const typed = startSave(run(open(), type("impressionsPlansComments", "Start topical steroid.")));
    const failedWith = (reason: "tandem" | "restarting" | "unreached" | "inactive" | "service" | "ehr" | "unconfirmed") => run(typed, { type: "saveFailed", failure: { kind: "system", reason } });
    expect(saveWaitingForTandem(failedWith("restarting"))).toBe("down");
    expect(saveWaitingForTandem(failedWith("unreached"))).toBe("down");
    // Uninstalled or suspended: nothing changes until it is reinstalled, so it waits for Tandem to answer again, no backoff.
    expect(saveWaitingForTandem(failedWith("inactive"))).toBe("inactive");
    // Its own trouble (the store), the service or the EHR: Retry, as before.
    for (const reason of ["tandem", "service", "ehr", "unconfirmed"] as const) expect(saveWaitingForTandem(failedWith(reason))).toBeNull();
    expect(saveWaitingForTandem(typed)).toBeNull();
    // The same request goes again, baselines and all: the BFF's conflict check applies as for any save.
    expect(saveRequestOf(failedWith("unreached"))).toEqual({ impressionsPlansComments: "Start topical steroid.", baseline: { impressionsPlansComments: "" } });
    // Text typed while it waits goes with it.
    const typedOn = run(failedWith("restarting"), type("impressionsPlansComments", "Start topical steroid. Review in 2 weeks."));
    expect(saveWaitingForTandem(typedOn)).toBe("down");
    expect(saveRequestOf(typedOn)?.impressionsPlansComments).toBe("Start topical steroid. Review in 2 weeks.");
    const saved = run(startSave(typedOn), { type: "saveSucceeded", note: note({ impressionsPlansComments: "Start topical steroid. Review in 2 weeks." }, 4), atMs: SAVED_AT });
    expect(saveWaitingForTandem(saved)).toBeNull();
  });

  it("a save waiting for Tandem's server to answer waits for Tandem to be active once the draft's try is refused because it is not", () => {
    const typed = startSave(run(open(), type("impressionsPlansComments", "Start topical steroid.")));
    const down = run(typed, { type: "saveFailed", failure: { kind: "system", reason: "unreached" } });
    expect(saveWaitingForTandem(run(down, { type: "draftSyncFailed", cause: "unreached" }))).toBe("down");
    const refused = run(down, { type: "draftSyncFailed", cause: "inactive" });
    expect(saveWaitingForTandem(refused)).toBe("inactive");
    expect(statusText(statusOf(refused), clock)).toBe("Not saved yet: Tandem is not active for this organization; your text will be saved once it is active again");
    // Kept in the tab instead (a browser that lets the frame store it): the same is learnt.
    expect(saveWaitingForTandem(run(down, { type: "draftStored", where: "session", revision: down.draftRevision, cause: "inactive" }))).toBe("inactive");
    // A save that failed otherwise keeps its own failure.
    const unconfirmed = run(typed, { type: "saveFailed", failure: { kind: "system", reason: "unconfirmed" } });
    expect(saveWaitingForTandem(run(unconfirmed, { type: "draftSyncFailed", cause: "inactive" }))).toBeNull();
  });

  it("says why when another error refused the save, and keeps the text", () => {
    const failed = run(startSave(run(open(), type("impressionsPlansComments", "Plan"))), { type: "saveFailed", failure: { kind: "other", message: "Your EHR session has expired", canRetry: true } });
    expect(statusText(statusOf(failed), clock)).toBe("Not saved: Your EHR session has expired");
    expect(failed.fields.impressionsPlansComments.value).toBe("Plan");
    const typedOn = run(failed, type("impressionsPlansComments", "Plan B"));
    expect(statusOf(typedOn).kind).toBe("failed"); // still unsaved until a save succeeds
  });
});

describe("a stale baseline (someone else changed a field)", () => {
  const typed = run(open(), type("otherExamComments", "Mine"), type("stickyNoteDescription", "My sticky"));
  const refused = run(startSave(typed), conflict("stale_baseline", { otherExamComments: "Theirs", additionalHpiComments: "Updated HPI" }, ["otherExamComments"]));

  it("shows both texts, keeps mine, and stops saving until the user chooses", () => {
    expect(conflictsOf(refused)).toEqual({ otherExamComments: { mine: "Mine", theirs: "Theirs" } });
    expect(refused.fields.otherExamComments.value).toBe("Mine");
    expect(statusOf(refused)).toEqual({ kind: "conflict", count: 1 });
    expect(statusText(statusOf(refused), clock)).toBe("Not saved: a field was changed in the EHR; choose which text to keep");
    expect(fieldStatusText(refused, "otherExamComments")).toBe("Changed in the EHR since you started: choose which text to keep");
    expect(saveRequestOf(refused)).toBeNull();
    expect(canAutosave(refused)).toBe(false);
    // An untouched field follows the note; the other touched field is untouched by the conflict.
    expect(refused.fields.additionalHpiComments).toEqual({ baseline: "Updated HPI", value: "Updated HPI" });
    expect(refused.fields.stickyNoteDescription.value).toBe("My sticky");
    expect(refused.noteVersion).toBe(4);
    expect(refused.remoteChange).toBeNull(); // told at the field, not as a remote change
  });

  it("'Keep my text' makes the next save overwrite their text knowingly", () => {
    const kept = run(refused, { type: "conflictResolved", field: "otherExamComments", choice: "mine" });
    expect(conflictsOf(kept)).toEqual({});
    expect(kept.fields.otherExamComments).toEqual({ baseline: "Theirs", value: "Mine" });
    expect(kept.changeRevision).toBe(refused.changeRevision + 1);
    expect(saveRequestOf(kept)).toEqual({
      otherExamComments: "Mine",
      stickyNoteDescription: "My sticky",
      baseline: { otherExamComments: "Theirs", stickyNoteDescription: START.stickyNoteDescription },
    });
  });

  it("'Use the EHR's text' replaces mine with theirs, leaving nothing to save in that field", () => {
    const taken = run(refused, { type: "conflictResolved", field: "otherExamComments", choice: "theirs" });
    expect(taken.fields.otherExamComments).toEqual({ baseline: "Theirs", value: "Theirs" });
    expect(dirtyFieldsOf(taken)).toEqual(["stickyNoteDescription"]);
    expect(saveRequestOf(taken)).toEqual({ stickyNoteDescription: "My sticky", baseline: { stickyNoteDescription: START.stickyNoteDescription } });
  });

  it("resolves by itself when the user types the EHR's text", () => {
    const same = run(refused, type("otherExamComments", "Theirs"));
    expect(conflictsOf(same)).toEqual({});
    expect(dirtyFieldsOf(same)).toEqual(["stickyNoteDescription"]);
  });
});

describe("a signed note", () => {
  it("turns read-only on a note_signed answer, keeping the text to copy", () => {
    const saving = startSave(run(open(), type("impressionsPlansComments", "Follow up in 4 weeks.")));
    const signed = run(saving, conflict("note_signed", {}, []));
    expect(readOnlyReasonOf(signed)).toBe(SIGNED_WITH_TEXT_REASON);
    expect(statusText(statusOf(signed), clock)).toBe(`Read-only: ${SIGNED_WITH_TEXT_REASON}`);
    expect(signed.fields.impressionsPlansComments.value).toBe("Follow up in 4 weeks.");
    expect(saveRequestOf(signed)).toBeNull();
    expect(canAutosave(signed)).toBe(false);
    expect(conflictsOf(signed)).toEqual({});
    expect(run(signed, type("impressionsPlansComments", "x")).fields.impressionsPlansComments.value).toBe("Follow up in 4 weeks.");
    expect(draftTextOf(signed, labelOf)).toBe("impressionsPlansComments:\nFollow up in 4 weeks.");
    expect(fieldStatusText(signed, "impressionsPlansComments")).toBe("Not saved: the note is read-only. Copy your text to keep it.");
    // The draft stays in the BFF: it is not deleted while text is unsaved.
    expect(needsDraftRelease(run(signed, { type: "draftStored", where: "bff", revision: signed.draftRevision, stored: {} }))).toBe(false);
  });

  it("stays read-only on a note_signed answer even if a later read still shows the old status", () => {
    const signed = run(startSave(run(open(), type("impressionsPlansComments", "x"))), conflict("note_signed", {}, [], 4));
    expect(readOnlyReasonOf(run(signed, { type: "noteRead", note: note({}, 4, "awaiting_sign") }))).toBe(SIGNED_WITH_TEXT_REASON);
  });

  it("turns read-only when a re-read finds the note signed, keeping the text, without a remote-change notice", () => {
    const typed = run(open(), type("otherExamComments", "Typed"));
    const signed = run(typed, { type: "noteRead", note: note({}, 4, "signed") });
    expect(readOnlyReasonOf(signed)).toBe(SIGNED_WITH_TEXT_REASON);
    expect(signed.fields.otherExamComments.value).toBe("Typed");
    expect(signed.remoteChange).toBeNull();
  });
});

describe("the note changing on the server", () => {
  it("updates the fields silently when the user has no unsaved text", () => {
    const state = run(open(), { type: "noteRead", note: note({ otherExamComments: "Edited in the EHR" }, 4) });
    expect(state.fields.otherExamComments).toEqual({ baseline: "Edited in the EHR", value: "Edited in the EHR" });
    expect(state.remoteChange).toBeNull();
    expect(dirtyFieldsOf(state)).toEqual([]);
  });

  it("ignores a re-read with nothing new", () => {
    const state = open();
    expect(run(state, { type: "noteRead", note: note() })).toBe(state);
  });

  it("updates untouched fields and tells the user when they have unsaved text", () => {
    const typed = run(open(), type("stickyNoteDescription", "My sticky"));
    const changed = run(typed, { type: "noteRead", note: note({ otherExamComments: "Edited in the EHR" }, 4) });
    expect(changed.fields.otherExamComments.value).toBe("Edited in the EHR");
    expect(changed.fields.stickyNoteDescription.value).toBe("My sticky");
    expect(conflictsOf(changed)).toEqual({});
    expect(changed.remoteChange).toEqual({ updatedFields: ["otherExamComments"], conflictFields: [] });
    expect(run(changed, { type: "remoteChangeDismissed" }).remoteChange).toBeNull();
  });

  it("never overwrites a touched field: it becomes a conflict", () => {
    const typed = run(open(), type("stickyNoteDescription", "My sticky"));
    const changed = run(typed, { type: "noteRead", note: note({ stickyNoteDescription: "Their sticky" }, 4) });
    expect(changed.fields.stickyNoteDescription.value).toBe("My sticky");
    expect(conflictsOf(changed)).toEqual({ stickyNoteDescription: { mine: "My sticky", theirs: "Their sticky" } });
    expect(changed.remoteChange).toEqual({ updatedFields: [], conflictFields: ["stickyNoteDescription"] });
    expect(canAutosave(changed)).toBe(false);
    const resolved = run(changed, { type: "conflictResolved", field: "stickyNoteDescription", choice: "mine" });
    expect(resolved.remoteChange).toEqual({ updatedFields: [], conflictFields: [] });
  });

  it("clears a touched field when the note now has the same text", () => {
    const typed = run(open(), type("stickyNoteDescription", "Same"));
    const changed = run(typed, { type: "noteRead", note: note({ stickyNoteDescription: "Same" }, 4) });
    expect(dirtyFieldsOf(changed)).toEqual([]);
  });

  it("tells the user when another part of the note changed while they had unsaved text", () => {
    const typed = run(open(), type("stickyNoteDescription", "My sticky"));
    expect(run(typed, { type: "noteRead", note: note({}, 4) }).remoteChange).toEqual({ updatedFields: [], conflictFields: [] });
  });

  it("ignores a read older than a save's answer", () => {
    const saved = run(startSave(run(open(), type("otherExamComments", "Saved"))), { type: "saveSucceeded", note: note({ otherExamComments: "Saved" }, 4), atMs: SAVED_AT });
    const stale = run(saved, { type: "noteRead", note: note({}, 3) });
    expect(stale).toBe(saved);
  });

  it("takes a read showing our own save in flight as ours: no conflict, no notice", () => {
    const saving = startSave(run(open(), type("otherExamComments", "Mine")));
    const typedMore = run(saving, type("otherExamComments", "Mine and more"));
    const read = run(typedMore, { type: "noteRead", note: note({ otherExamComments: "Mine" }, 4) });
    expect(conflictsOf(read)).toEqual({});
    expect(read.remoteChange).toBeNull();
    expect(read.fields.otherExamComments).toEqual({ baseline: "Mine", value: "Mine and more" });
    const saved = run(read, { type: "saveSucceeded", note: note({ otherExamComments: "Mine" }, 4), atMs: SAVED_AT });
    expect(saved.fields.otherExamComments).toEqual({ baseline: "Mine", value: "Mine and more" });
    expect(statusOf(saved).kind).toBe("unsaved");
  });

  it("keeps a newer read when a save's answer arrives later with an older version", () => {
    const saving = startSave(run(open(), type("otherExamComments", "Mine")));
    const newer = run(saving, { type: "noteRead", note: note({ otherExamComments: "Mine", additionalHpiComments: "Later edit" }, 5) });
    const saved = run(newer, { type: "saveSucceeded", note: note({ otherExamComments: "Mine" }, 4), atMs: SAVED_AT });
    expect(saved.noteVersion).toBe(5);
    expect(saved.fields.additionalHpiComments.value).toBe("Later edit");
    expect(dirtyFieldsOf(saved)).toEqual([]);
    expect(statusOf(saved)).toEqual({ kind: "saved", atMs: SAVED_AT });
  });

  it("updates untouched fields from a save's answer and tells the user if they still have text", () => {
    const saving = startSave(run(open(), type("otherExamComments", "Mine")));
    const typedElsewhere = run(saving, type("stickyNoteDescription", "Sticky"));
    const saved = run(typedElsewhere, { type: "saveSucceeded", note: note({ otherExamComments: "Mine", additionalHpiComments: "Edited in the EHR" }, 5), atMs: SAVED_AT });
    expect(saved.fields.additionalHpiComments.value).toBe("Edited in the EHR");
    expect(saved.remoteChange).toEqual({ updatedFields: ["additionalHpiComments"], conflictFields: [] });
  });
});

describe("a stored draft found on open", () => {
  const draft = (fields: NoteDraftBody["fields"], baseline: NoteDraftBody["baseline"], noteVersion: number | null = 3): NoteDraftBody => ({ fields, baseline, noteVersion, updatedAt: "2026-12-01T16:58:00.000Z" });

  it("is offered with what changed, and nothing can be typed until the user chooses", () => {
    const state = open({ draft: draft({ otherExamComments: "Draft text" }, { otherExamComments: START.otherExamComments }) });
    expect(draftOfferOf(state)).toEqual({
      updatedAt: "2026-12-01T16:58:00.000Z",
      rows: [{ field: "otherExamComments", draftText: "Draft text", noteText: START.otherExamComments, noteChangedSinceDraft: false }],
    });
    expect(canTypeIn(state)).toBe(false);
    expect(run(state, type("otherExamComments", "x"))).toBe(state);
    expect(fieldStatusText(state, "otherExamComments")).toBe("Restore or discard your earlier unsaved text first");
    expect(needsDraftPut(state)).toBe(false);
    expect(needsDraftRelease(state)).toBe(false);
    expect(saveRequestOf(state)).toBeNull();
  });

  it("makes the header say there is unsaved text, as the notice does, never \"No unsaved changes\" (issue 35 item 2)", () => {
    const state = open({ draft: draft({ otherExamComments: "Draft text" }, { otherExamComments: START.otherExamComments }) });
    expect(draftOfferOf(state)).not.toBeNull();
    expect(statusOf(state)).toEqual({ kind: "draftWaiting" });
    expect(statusText(statusOf(state), clock)).toBe("Unsaved text from earlier: restore or discard it");
    // Both follow the same state: once chosen, the header follows the fields.
    expect(statusOf(run(state, { type: "draftDiscarded" }))).toEqual({ kind: "clean" });
    expect(statusOf(run(state, { type: "draftRestored" }))).toEqual({ kind: "unsaved", count: 1, lastSavedAtMs: null });
    // A draft whose text the note already has offers nothing, and the header says so too.
    expect(statusOf(open({ draft: draft({ otherExamComments: START.otherExamComments }, { otherExamComments: "older" }) }))).toEqual({ kind: "clean" });
    // On a signed note the read-only reason comes first (the draft is only to copy).
    expect(statusOf(open({ note: note({}, 3, "signed"), draft: draft({ otherExamComments: "Draft text" }, { otherExamComments: START.otherExamComments }) })).kind).toBe("readOnly");
  });

  it("sends a draft only this tab holds to the BFF while it waits for the user's choice, and one the BFF has already, not again", () => {
    const fromTab = initialEditorState({ note: note(), cannotEditReason: null, draft: draft({ otherExamComments: "Typed, then a reload" }, { otherExamComments: START.otherExamComments }), draftWhere: "session" });
    expect(offeredDraftToKeep(fromTab)).toEqual({ fields: { otherExamComments: "Typed, then a reload" }, baseline: { otherExamComments: START.otherExamComments }, noteVersion: 3 });
    expect(fromTab.draftStore.held).toEqual({}); // not yet in the BFF: nothing of it to release
    const kept = run(fromTab, { type: "draftStored", where: "bff", revision: fromTab.draftRevision, stored: { otherExamComments: "Typed, then a reload" } });
    expect(kept.draftStore.held).toEqual({ otherExamComments: "Typed, then a reload" });
    expect(offeredDraftToKeep(kept)).toBeNull();
    expect(draftOfferOf(kept)).not.toBeNull(); // still the user's to restore or discard
    expect(offeredDraftToKeep(open({ draft: draft({ otherExamComments: "Draft text" }, { otherExamComments: START.otherExamComments }) }))).toBeNull();
  });

  it("Restore puts the text back as unsaved changes, to be kept and saved", () => {
    const restored = run(open({ draft: draft({ otherExamComments: "Draft text" }, { otherExamComments: START.otherExamComments }) }), { type: "draftRestored" });
    expect(restored.draftOffer).toBeNull();
    expect(restored.fields.otherExamComments).toEqual({ baseline: START.otherExamComments, value: "Draft text" });
    expect(conflictsOf(restored)).toEqual({});
    expect(canAutosave(restored)).toBe(true);
    expect(needsDraftPut(restored)).toBe(true);
  });

  it("Restore of a draft whose baseline no longer matches the note makes a conflict, not a silent overwrite", () => {
    const state = open({ note: note({ otherExamComments: "Changed in the EHR" }, 5), draft: draft({ otherExamComments: "Draft text" }, { otherExamComments: START.otherExamComments }) });
    expect(draftOfferOf(state)?.rows[0]?.noteChangedSinceDraft).toBe(true);
    const restored = run(state, { type: "draftRestored" });
    expect(conflictsOf(restored)).toEqual({ otherExamComments: { mine: "Draft text", theirs: "Changed in the EHR" } });
    expect(saveRequestOf(restored)).toBeNull();
    const kept = run(restored, { type: "conflictResolved", field: "otherExamComments", choice: "mine" });
    expect(saveRequestOf(kept)).toEqual({ otherExamComments: "Draft text", baseline: { otherExamComments: "Changed in the EHR" } });
  });

  it("Discard drops the offer and releases the stored draft's fields as they were shown", () => {
    const discarded = run(open({ draft: draft({ otherExamComments: "Draft text" }, { otherExamComments: START.otherExamComments }) }), { type: "draftDiscarded" });
    expect(draftOfferOf(discarded)).toBeNull();
    expect(canTypeIn(discarded)).toBe(true);
    expect(needsDraftRelease(discarded)).toBe(true);
    expect(draftReleaseOf(discarded)).toEqual({ fields: {}, baseline: {}, noteVersion: 3, released: { otherExamComments: "Draft text" } });
    const cleared = run(discarded, { type: "draftCleared" });
    expect(cleared.draftStore.where).toBe("none");
    expect(needsDraftRelease(cleared)).toBe(false);
  });

  it("offers nothing, and is cleaned up, when the note already has the draft's text", () => {
    const state = open({ draft: draft({ otherExamComments: START.otherExamComments }, { otherExamComments: "older" }) });
    expect(state.draftOffer).toBeNull();
    expect(canTypeIn(state)).toBe(true);
    expect(needsDraftRelease(state)).toBe(true);
  });

  it("flags a field without a baseline as changed when the note's version moved on", () => {
    const state = open({ note: note({}, 6), draft: draft({ stickyNoteDescription: "Draft" }, {}, 3) });
    expect(draftOfferOf(state)?.rows).toEqual([{ field: "stickyNoteDescription", draftText: "Draft", noteText: START.stickyNoteDescription, noteChangedSinceDraft: true }]);
  });

  it("stays copyable on a signed note, and can be restored to copy", () => {
    const state = open({ note: note({}, 4, "signed"), draft: draft({ impressionsPlansComments: "Unsaved plan" }, { impressionsPlansComments: "" }) });
    expect(draftTextOf(state, labelOf)).toBe("impressionsPlansComments:\nUnsaved plan");
    const restored = run(state, { type: "draftRestored" });
    expect(restored.fields.impressionsPlansComments.value).toBe("Unsaved plan");
    expect(readOnlyReasonOf(restored)).toBe(SIGNED_WITH_TEXT_REASON);
    expect(saveRequestOf(restored)).toBeNull();
  });
});

describe("keeping the draft", () => {
  it("says where the latest text is kept, and stores again after more typing", () => {
    const typed = run(open(), type("otherExamComments", "Typed"));
    expect(draftKeptOf(typed)).toBeNull();
    const kept = run(typed, { type: "draftStored", where: "bff", revision: typed.draftRevision, stored: {} });
    expect(draftKeptOf(kept)).toBe("bff");
    expect(needsDraftPut(kept)).toBe(false);
    const more = run(kept, type("otherExamComments", "Typed more"));
    expect(draftKeptOf(more)).toBeNull();
    expect(needsDraftPut(more)).toBe(true);
  });

  it("says the latest text is on screen only once storing it failed and this tab could not keep it, until it is kept", () => {
    const typed = run(open(), type("otherExamComments", "Typed"));
    expect(draftUnkeptText(typed)).toBeNull();
    const failed = run(typed, { type: "draftSyncFailed", cause: "unreached" });
    expect(draftUnkeptText(failed)).toBe("Draft not kept: Tandem's server did not answer. Keep this page open; it is sent again by itself.");
    expect(draftUnkeptText(run(failed, { type: "draftStored", where: "bff", revision: typed.draftRevision, stored: {} }))).toBeNull();
    expect(draftUnkeptText(run(failed, { type: "draftStored", where: "session", revision: typed.draftRevision, cause: "unreached" }))).toBeNull();
    // Tandem's server answered, refusing it: the organization's installation is not active.
    const refused = run(typed, { type: "draftSyncFailed", cause: "inactive" });
    expect(draftUnkeptText(refused)).toBe("Draft not kept: Tandem is not active for this organization. Keep this page open; it is sent again once Tandem is active.");
  });

  it("falls back to this tab while the BFF cannot be reached, and keeps trying the BFF", () => {
    const typed = run(open(), type("otherExamComments", "Typed"));
    const inTab = run(typed, { type: "draftStored", where: "session", revision: typed.draftRevision, cause: "unreached" });
    expect(draftKeptOf(inTab)).toBe("session");
    expect(needsDraftPut(inTab)).toBe(true);
    expect(inTab.draftStore.failures).toBe(1);
    const inBff = run(inTab, { type: "draftStored", where: "bff", revision: typed.draftRevision, stored: {} });
    expect(draftKeptOf(inBff)).toBe("bff");
    expect(inBff.draftStore.failures).toBe(0);
  });

  it("releases what it stored once the service has confirmed everything, with the text it stored", () => {
    const typed = run(open(), type("otherExamComments", "Typed"));
    const kept = run(typed, { type: "draftStored", where: "bff", revision: typed.draftRevision, stored: { otherExamComments: "Typed" } });
    const saved = run(startSave(kept), { type: "saveSucceeded", note: note({ otherExamComments: "Typed" }, 4), atMs: SAVED_AT });
    expect(needsDraftRelease(saved)).toBe(true);
    expect(draftKeptOf(saved)).toBeNull();
    expect(draftReleaseOf(saved)).toEqual({ fields: {}, baseline: {}, noteVersion: 4, released: { otherExamComments: "Typed" } });
    const cleared = run(saved, { type: "draftCleared" });
    expect(needsDraftRelease(cleared)).toBe(false);
    expect(draftReleaseOf(cleared)).toBeNull();
  });

  it("sends only the fields it holds, releasing one it stored and no longer holds: another tab's text in other fields is never sent over", () => {
    const typed = run(open(), type("additionalHpiComments", "Tab A's text"));
    const kept = run(typed, { type: "draftStored", where: "bff", revision: typed.draftRevision, stored: draftBodyOf(typed)?.fields ?? {} });
    const movedOn = run(run(kept, type("additionalHpiComments", START.additionalHpiComments)), type("otherExamComments", "Exam"));
    expect(draftBodyOf(movedOn)).toEqual({
      fields: { otherExamComments: "Exam" },
      baseline: { otherExamComments: START.otherExamComments },
      noteVersion: 3,
      released: { additionalHpiComments: "Tab A's text" },
    });
    // Stored nothing yet: nothing to release, and nothing at all to send once nothing is dirty.
    const fresh = run(run(open(), type("otherExamComments", "x")), type("otherExamComments", START.otherExamComments));
    expect(draftBodyOf(run(open(), type("otherExamComments", "x")))).not.toHaveProperty("released");
    expect(draftReleaseOf(fresh)).toBeNull();
  });

  it("stores the draft again when a save changed its baseline but text remains", () => {
    const saving = startSave(run(open(), type("otherExamComments", "Typed")));
    const more = run(saving, type("otherExamComments", "Typed more"));
    const kept = run(more, { type: "draftStored", where: "bff", revision: more.draftRevision, stored: {} });
    const saved = run(kept, { type: "saveSucceeded", note: note({ otherExamComments: "Typed" }, 4), atMs: SAVED_AT });
    expect(saved.draftRevision).toBe(kept.draftRevision + 1);
    expect(needsDraftPut(saved)).toBe(true);
    expect(draftBodyOf(saved)).toEqual({ fields: { otherExamComments: "Typed more" }, baseline: { otherExamComments: "Typed" }, noteVersion: 4 });
  });
});
