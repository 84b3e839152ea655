// @vitest-environment happy-dom
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { noteDraftPutRequest, noteDraftResponse, notePatchRequest, noteResponse, type NoteDraftBody, type WritableFieldValues } from "#contract/app-api/note.ts";
import { writableValues, type Note } from "#contract/clinic-api/note.ts";
import { finishPendingWrites } from "#src/api/before-sign-out.ts";
import { callBff } from "#src/api/bff-client.ts";
import { identityKey, switchCacheIdentity } from "#src/api/cache-identity.ts";
import { idKey } from "#contract/ids.ts";
import { listenForSavesInOtherTabs } from "../changes/saved-in-another-tab.ts";
import { renderWithUser, testQueryClient } from "#src/testing/render.tsx";
import { failure, heldAnswer, installFakeBff, ok, type BffCall, type FakeBff } from "#src/testing/fake-bff.ts";
import { buildNoteFixture, buildSignedNoteFixture } from "../reading/testing/note-fixture.ts";
import { NoteEditorHarness } from "./testing/note-editor-harness.tsx";
import { readSessionDraft } from "./session-draft.ts";
import { DRAFT_DEBOUNCE_MS } from "./use-draft-sync.ts";

// The note editor as a clinician uses it: typing, the save bar's words and
// where the draft is kept, saving (autosave, Save, Ctrl+S, Retry, a save
// sent again once Tandem is back) and what a failure names, a field changed in
// the EHR meanwhile (keep mine / use the EHR's), a draft kept from earlier
// (Restore / Discard), and a note that cannot be changed. The BFF is faked at
// `fetch` (src/testing/fake-bff.ts); the editor's own hooks run as in the app.

const NOTE = buildNoteFixture();
const NOTE_PATH = `/api/notes/${NOTE.id}`;
const DRAFT_PATH = `${NOTE_PATH}/draft`;
const STICKY_NOTE = NOTE.soapNote.stickyNote.description;
const ADDED = " Before Friday.";
const CONFLICT_TITLE = "This field was changed in the EHR while you were editing. Choose which text to keep.";

/** The fixture note with some writable fields changed, as the EHR would answer it at `version`. */
function noteWith(values: WritableFieldValues, version: number): Note {
  const soap = NOTE.soapNote;
  return buildNoteFixture({
    version,
    soapNote: {
      hpi: { ...soap.hpi, additionalHpiComments: values.additionalHpiComments ?? soap.hpi.additionalHpiComments },
      exam: { ...soap.exam, otherExamComments: values.otherExamComments ?? soap.exam.otherExamComments },
      impressionsPlansComments: values.impressionsPlansComments ?? soap.impressionsPlansComments,
      stickyNote: { ...soap.stickyNote, description: values.stickyNoteDescription ?? soap.stickyNote.description },
    },
  });
}

/** The service's answer to a save: the note with the sent fields, one version on. */
const savedAnswer = (call: BffCall) => {
  const { baseline: _baseline, ...values } = z.parse(notePatchRequest, call.body);
  return ok(noteResponse, { note: noteWith(values, NOTE.version + 1) });
};

const patchBodies = (bff: FakeBff) => bff.calls("PATCH", NOTE_PATH).map((call) => z.parse(notePatchRequest, call.body));
const stickyNoteBox = () => screen.getByRole("textbox", { name: "Sticky note" });
/** The text in a text box (a textarea's value, which is not its text content). */
function textIn(box: HTMLElement): string {
  if (!(box instanceof HTMLTextAreaElement)) throw new Error("not a textarea");
  return box.value;
}
const saveButton = () => screen.getByRole("button", { name: "Save" });
/** A browser that denies the EHR's cross-site frame its sessionStorage (Chromium blocking third-party cookies); restore the spy after. */
const denyFrameStorage = () =>
  vi.spyOn(window.sessionStorage, "setItem").mockImplementation(() => {
    throw new DOMException("Access is denied", "SecurityError");
  });
/** Tandem uninstalled: the BFF refuses every call before anything reaches the service. */
const inactive = failure(403, { code: "installation_inactive", message: "Tandem's installation for this organization is uninstalled" });

let bff: FakeBff;
beforeEach(() => {
  sessionStorage.clear();
  bff = installFakeBff();
  bff.on("PUT", DRAFT_PATH, (call) => ok(noteDraftResponse, { draft: { ...z.parse(noteDraftPutRequest, call.body), updatedAt: "2026-11-20T15:00:00.000Z" } }));
  bff.on("PATCH", NOTE_PATH, savedAnswer);
});
// Every call the editor made was one the test expected.
afterEach(() => expect(bff.unanswered).toEqual([]));

describe("typing in the note editor", () => {
  it("says the text is unsaved, at the field and in the save bar, and keeps the draft in Tandem", async () => {
    const { user } = renderWithUser(<NoteEditorHarness note={NOTE} />);
    expect(screen.getByText("No unsaved changes")).toBeTruthy();
    expect(saveButton().hasAttribute("disabled")).toBe(true);

    await user.type(stickyNoteBox(), ADDED);

    expect(textIn(stickyNoteBox())).toBe(`${STICKY_NOTE}${ADDED}`);
    expect(screen.getByText("Unsaved changes")).toBeTruthy();
    expect(screen.getByText("1 field changed")).toBeTruthy();
    expect(screen.getByText("Changed, not saved yet")).toBeTruthy();
    expect(saveButton().hasAttribute("disabled")).toBe(false);
    expect(await screen.findByText("Draft kept", {}, { timeout: 6_000 })).toBeTruthy();
    const kept = z.parse(noteDraftPutRequest, bff.calls("PUT", DRAFT_PATH).at(-1)?.body);
    expect(kept.fields).toEqual({ stickyNoteDescription: `${STICKY_NOTE}${ADDED}` });
    expect(kept.baseline).toEqual({ stickyNoteDescription: STICKY_NOTE });
  });

  it("stores the text typed at once when the user signs out, before the draft's wait has passed", async () => {
    const { user } = renderWithUser(<NoteEditorHarness note={NOTE} />);
    await user.type(stickyNoteBox(), ADDED);
    expect(bff.calls("PUT", DRAFT_PATH)).toEqual([]);
    await finishPendingWrites();
    expect(bff.calls("PUT", DRAFT_PATH).map((call) => z.parse(noteDraftPutRequest, call.body).fields)).toEqual([{ stickyNoteDescription: `${STICKY_NOTE}${ADDED}` }]);
  });

  it("typing the note's own text back leaves nothing to save", async () => {
    const { user } = renderWithUser(<NoteEditorHarness note={NOTE} />);
    await user.type(stickyNoteBox(), "x");
    expect(screen.getByText("Unsaved changes")).toBeTruthy();
    await user.keyboard("{Backspace}");
    expect(screen.getByText("No unsaved changes")).toBeTruthy();
    expect(screen.queryByText("Changed, not saved yet")).toBeNull();
  });

  it("keeps the draft in this browser tab when Tandem's server cannot keep it, and says so", async () => {
    bff.on("PUT", DRAFT_PATH, failure(503, { code: "store_unavailable", message: "Tandem's store did not answer", retry_after_seconds: 1 }));
    const { user } = renderWithUser(<NoteEditorHarness note={NOTE} />);
    await user.type(stickyNoteBox(), ADDED);
    expect(await screen.findByText("Draft kept in this browser tab only", {}, { timeout: 6_000 })).toBeTruthy();
    expect(JSON.stringify(readSessionDraft(NOTE.id))).toContain(ADDED);
  });

  it("says the text is on screen only when neither Tandem's server nor this tab can keep it, and no longer once the draft is kept", async () => {
    // A browser that denies the EHR's cross-site frame its storage.
    const denied = denyFrameStorage();
    // Tandem's store takes neither the draft nor the save (so autosave does not end the test's state first).
    const storeDown = failure(503, { code: "store_unavailable", message: "Tandem's store did not answer", retry_after_seconds: 1 });
    bff.on("PUT", DRAFT_PATH, storeDown);
    bff.on("PATCH", NOTE_PATH, storeDown);
    try {
      const { user } = renderWithUser(<NoteEditorHarness note={NOTE} />);
      await user.type(stickyNoteBox(), ADDED);
      const unkept = await screen.findByText("Draft not kept: Tandem's server did not answer. Keep this page open; it is sent again by itself.", {}, { timeout: 6_000 });
      expect(unkept.getAttribute("aria-live")).toBe("polite");
      bff.on("PUT", DRAFT_PATH, (call) => ok(noteDraftResponse, { draft: { ...z.parse(noteDraftPutRequest, call.body), updatedAt: "2026-11-20T15:00:00.000Z" } }));
      expect(await screen.findByText("Draft kept", {}, { timeout: 6_000 })).toBeTruthy();
      expect(screen.queryByText(/Draft not kept/)).toBeNull();
    } finally {
      denied.mockRestore();
    }
  });

  it("another user signed in before the text reached Tandem: nothing is sent with their token, and the text stays in the tab under the typist (ADR 0025)", async () => {
    const queryClient = testQueryClient();
    switchCacheIdentity(queryClient, { organizationId: "org-a", userId: "physician-1" });
    const { user, unmount } = renderWithUser(<NoteEditorHarness note={NOTE} />, { queryClient });
    await user.type(stickyNoteBox(), ADDED);
    // As the bridge does: the identity changes, then the app remounts for the new one.
    switchCacheIdentity(queryClient, { organizationId: "org-a", userId: "physician-2" });
    unmount();
    await new Promise((resolve) => setTimeout(resolve, DRAFT_DEBOUNCE_MS + 200));
    expect(bff.calls("PUT", DRAFT_PATH)).toEqual([]);
    expect(readSessionDraft(NOTE.id)).toBeNull();
    switchCacheIdentity(queryClient, { organizationId: "org-a", userId: "physician-1" });
    expect(JSON.stringify(readSessionDraft(NOTE.id))).toContain(ADDED);
    switchCacheIdentity(queryClient, null);
  });
});

describe("saving", () => {
  it("saves on Ctrl+S the changed field with the text the user started from, and says Saving… then Saved", async () => {
    const held = heldAnswer();
    bff.once("PATCH", NOTE_PATH, held.answer);
    const { user } = renderWithUser(<NoteEditorHarness note={NOTE} />);
    await user.type(stickyNoteBox(), ADDED);
    await user.keyboard("{Control>}s{/Control}");

    // The save bar and the field both say it.
    expect(await screen.findAllByText("Saving…")).toHaveLength(2);
    expect(saveButton().hasAttribute("disabled")).toBe(true);
    expect(patchBodies(bff)).toEqual([{ stickyNoteDescription: `${STICKY_NOTE}${ADDED}`, baseline: { stickyNoteDescription: STICKY_NOTE } }]);

    held.release(ok(noteResponse, { note: noteWith({ stickyNoteDescription: `${STICKY_NOTE}${ADDED}` }, NOTE.version + 1) }));
    expect(await screen.findByText(/^Saved \d{1,2}:\d{2}\s?[AP]M$/)).toBeTruthy();
    expect(screen.queryByText("1 field changed")).toBeNull();
    expect(saveButton().hasAttribute("disabled")).toBe(true);
  });

  it("saves by itself a few seconds after typing stops", async () => {
    const { user } = renderWithUser(<NoteEditorHarness note={NOTE} />);
    await user.type(stickyNoteBox(), ADDED);
    expect(await screen.findByText(/^Saved /, {}, { timeout: 10_000 })).toBeTruthy();
    expect(patchBodies(bff)).toEqual([{ stickyNoteDescription: `${STICKY_NOTE}${ADDED}`, baseline: { stickyNoteDescription: STICKY_NOTE } }]);
  });

  it("a save that met Tandem's server restarting says the text will be saved when it is back, and goes again by itself", async () => {
    bff.once("PATCH", NOTE_PATH, failure(503, { code: "not_ready", message: "Tandem is restarting" }));
    const { user } = renderWithUser(<NoteEditorHarness note={NOTE} />);
    await user.type(stickyNoteBox(), ADDED);
    await user.click(saveButton());

    expect(await screen.findAllByText("Not saved yet: Tandem's server is restarting; your text will be saved when Tandem is back")).toHaveLength(2);
    // The draft reaches the BFF first; its answer says Tandem is back, and the save goes again without a click.
    expect(await screen.findByText(/^Saved /, {}, { timeout: 6_000 })).toBeTruthy();
    expect(patchBodies(bff)).toHaveLength(2);
    expect(bff.calls("PUT", DRAFT_PATH).length).toBeGreaterThan(0);
  });

  it("Tandem uninstalled while typing: the save and the draft say so, are not sent again while it is, and go once Tandem answers again", async () => {
    // A browser that denies the EHR's cross-site frame its storage, so the draft's own words show.
    const denied = denyFrameStorage();
    bff.on("PUT", DRAFT_PATH, inactive);
    bff.on("PATCH", NOTE_PATH, inactive);
    try {
      const { user } = renderWithUser(<NoteEditorHarness note={NOTE} />);
      await user.type(stickyNoteBox(), ADDED);
      await user.click(saveButton());
      expect(await screen.findAllByText("Not saved yet: Tandem is not active for this organization; your text will be saved once it is active again")).toHaveLength(2);
      expect(await screen.findByText("Draft not kept: Tandem is not active for this organization. Keep this page open; it is sent again once Tandem is active.", {}, { timeout: 6_000 })).toBeTruthy();
      // Refused, not lost: no save is sent again on a backoff while every call is refused.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(patchBodies(bff)).toHaveLength(1);
      // Reinstalled: the draft, tried again on its backoff, is answered; the save goes with it, without a click.
      bff.on("PUT", DRAFT_PATH, (call) => ok(noteDraftResponse, { draft: { ...z.parse(noteDraftPutRequest, call.body), updatedAt: "2026-11-20T15:00:00.000Z" } }));
      bff.on("PATCH", NOTE_PATH, savedAnswer);
      expect(await screen.findByText(/^Saved /, {}, { timeout: 15_000 })).toBeTruthy();
      expect(patchBodies(bff)).toEqual([
        { stickyNoteDescription: `${STICKY_NOTE}${ADDED}`, baseline: { stickyNoteDescription: STICKY_NOTE } },
        { stickyNoteDescription: `${STICKY_NOTE}${ADDED}`, baseline: { stickyNoteDescription: STICKY_NOTE } },
      ]);
      expect(screen.queryByText(/Not saved|Draft not kept/)).toBeNull();
    } finally {
      denied.mockRestore();
    }
  }, 30_000);

  it("Tandem's server back but Tandem uninstalled: a save that met it down says Tandem is not active as soon as another call is refused so, not at its next try", async () => {
    const denied = denyFrameStorage();
    const unreached = () => {
      throw new TypeError("Failed to fetch");
    };
    bff.on("PUT", DRAFT_PATH, unreached);
    bff.on("PATCH", NOTE_PATH, unreached);
    try {
      const { user } = renderWithUser(<NoteEditorHarness note={NOTE} />);
      await user.type(stickyNoteBox(), ADDED);
      await user.click(saveButton());
      expect(await screen.findAllByText("Not saved yet: Tandem's server is not answering; your text will be saved when Tandem is back")).toHaveLength(2);
      // The draft's third failed try: its next is 4 s away.
      await waitFor(() => expect(bff.calls("PUT", DRAFT_PATH)).toHaveLength(3), { timeout: 6_000 });
      expect(screen.getByText("Draft not kept: Tandem's server did not answer. Keep this page open; it is sent again by itself.")).toBeTruthy();

      // Tandem's server is back, and Tandem uninstalled: another part of the app's call is refused so.
      bff.on("PUT", DRAFT_PATH, inactive);
      bff.on("PATCH", NOTE_PATH, inactive);
      bff.on("GET", "/api/session", inactive);
      await expect(callBff("/api/session", z.unknown())).rejects.toThrow();
      expect(await screen.findAllByText("Not saved yet: Tandem is not active for this organization; your text will be saved once it is active again", {}, { timeout: 2_000 })).toHaveLength(2);
      expect(screen.getByText("Draft not kept: Tandem is not active for this organization. Keep this page open; it is sent again once Tandem is active.")).toBeTruthy();
      expect(patchBodies(bff)).toHaveLength(1);

      // Reinstalled: the first call answered sends the draft, then the save, without a click.
      bff.on("PUT", DRAFT_PATH, (call) => ok(noteDraftResponse, { draft: { ...z.parse(noteDraftPutRequest, call.body), updatedAt: "2026-11-20T15:00:00.000Z" } }));
      bff.on("PATCH", NOTE_PATH, savedAnswer);
      bff.on("GET", "/api/session", { status: 200, body: {} });
      await callBff("/api/session", z.unknown());
      expect(await screen.findByText(/^Saved /, {}, { timeout: 3_000 })).toBeTruthy();
      expect(patchBodies(bff)).toHaveLength(2);
    } finally {
      denied.mockRestore();
    }
  }, 20_000);

  it("a save the clinic data service turned away as busy says when Tandem tries again, and goes again by itself then", async () => {
    bff.once("PATCH", NOTE_PATH, failure(429, { code: "rate_limited", message: "The clinic data service is busy", retry_after_seconds: 1 }));
    const { user } = renderWithUser(<NoteEditorHarness note={NOTE} />);
    await user.type(stickyNoteBox(), ADDED);
    await user.click(saveButton());

    // Read out by the save bar, shown as its count, and at the field.
    expect(await screen.findAllByText("Not saved yet: the clinic data service is busy; Tandem tries again in 1 second")).toHaveLength(3);
    expect(patchBodies(bff)).toHaveLength(1);
    // The service did not process the refused save: the same text goes once more, without a click.
    expect(await screen.findByText(/^Saved /, {}, { timeout: 4_000 })).toBeTruthy();
    expect(patchBodies(bff)).toEqual([
      { stickyNoteDescription: `${STICKY_NOTE}${ADDED}`, baseline: { stickyNoteDescription: STICKY_NOTE } },
      { stickyNoteDescription: `${STICKY_NOTE}${ADDED}`, baseline: { stickyNoteDescription: STICKY_NOTE } },
    ]);
  });

  it.each([
    // `shown`: read out by the save bar and at the field, and as the bar's count where it is sent again by itself.
    { system: "the clinic data service", answer: failure(502, { code: "upstream_unavailable", message: "The clinic data service did not answer" }), words: "Not saved: the clinic data service did not answer; Tandem tries again in 5 seconds", shown: 3 },
    { system: "the EHR", answer: failure(502, { code: "server_unresponsive", message: "The EHR did not answer", upstream_trace_id: "svc_1" }), words: "Not saved: the EHR did not answer; Tandem tries again in 5 seconds", shown: 3 },
    { system: "Tandem's server", answer: failure(503, { code: "store_unavailable", message: "Tandem's store did not answer", retry_after_seconds: 1 }), words: "Not saved: Tandem's server is having trouble", shown: 2 },
  ])("a save that failed in $system names it, keeps the text, and Retry sends it again", async ({ answer, words, shown }) => {
    bff.once("PATCH", NOTE_PATH, answer);
    const { user } = renderWithUser(<NoteEditorHarness note={NOTE} />);
    await user.type(stickyNoteBox(), ADDED);
    await user.click(saveButton());

    expect(await screen.findAllByText(words)).toHaveLength(shown);
    expect(textIn(stickyNoteBox())).toBe(`${STICKY_NOTE}${ADDED}`);

    await user.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByText(/^Saved /)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Retry" })).toBeNull();
    expect(patchBodies(bff)).toHaveLength(2);
  });

  it("a save the EHR did not answer goes again by itself after the wait it names, with the same text", async () => {
    bff.once("PATCH", NOTE_PATH, failure(502, { code: "server_unresponsive", message: "The EHR did not answer", upstream_trace_id: "svc_1" }));
    const { user } = renderWithUser(<NoteEditorHarness note={NOTE} />);
    await user.type(stickyNoteBox(), ADDED);
    await user.click(saveButton());

    expect(await screen.findAllByText("Not saved: the EHR did not answer; Tandem tries again in 5 seconds")).toHaveLength(3);
    // The bar counts the wait down; what it read out, and the field, keep the words said when the save failed.
    const count = await screen.findByTestId("save-status-countdown");
    await waitFor(() => expect(count.textContent).toBe("Not saved: the EHR did not answer; Tandem tries again in 4 seconds"), { timeout: 2_500 });
    expect(screen.getAllByText("Not saved: the EHR did not answer; Tandem tries again in 5 seconds")).toHaveLength(2);
    expect(within(screen.getByTestId("save-status-bar")).getByRole("status").textContent).toContain("Not saved: the EHR did not answer; Tandem tries again in 5 seconds");
    expect(await screen.findByText(/^Saved /, {}, { timeout: 7_000 })).toBeTruthy();
    expect(patchBodies(bff)).toEqual([
      { stickyNoteDescription: `${STICKY_NOTE}${ADDED}`, baseline: { stickyNoteDescription: STICKY_NOTE } },
      { stickyNoteDescription: `${STICKY_NOTE}${ADDED}`, baseline: { stickyNoteDescription: STICKY_NOTE } },
    ]);
  }, 10_000);
});

describe("a field changed in the EHR while the user typed in it", () => {
  const THEIRS = "Call the son instead: the daughter is travelling.";
  const conflictAnswer = failure(409, {
    code: "conflict",
    message: "The note changed since you started",
    reason: "stale_baseline",
    current: { ...writableValues(NOTE), stickyNoteDescription: THEIRS },
    conflictingFields: ["stickyNoteDescription"],
    noteStatus: NOTE.status,
    noteVersion: NOTE.version + 1,
  });

  async function typeAndMeetConflict() {
    bff.once("PATCH", NOTE_PATH, conflictAnswer);
    const rendered = renderWithUser(<NoteEditorHarness note={NOTE} />);
    await rendered.user.type(stickyNoteBox(), ADDED);
    await rendered.user.click(saveButton());
    const choice = await screen.findByRole("group", { name: CONFLICT_TITLE });
    return { ...rendered, choice };
  }

  it("a conflict with the user's own save in another tab says so, not that the EHR changed it", async () => {
    const queryClient = testQueryClient();
    const physician = { organizationId: "org-a", userId: "physician-1" };
    switchCacheIdentity(queryClient, physician);
    listenForSavesInOtherTabs();
    const otherTab = new BroadcastChannel("tandem.note-saves");
    try {
      otherTab.postMessage({ identity: identityKey(physician), noteId: idKey(NOTE.id), fields: { stickyNoteDescription: THEIRS }, atMs: 0 });
      await new Promise((resolve) => setTimeout(resolve, 20));
      bff.once("PATCH", NOTE_PATH, conflictAnswer);
      const { user } = renderWithUser(<NoteEditorHarness note={NOTE} />, { queryClient });
      await user.type(stickyNoteBox(), ADDED);
      await user.click(saveButton());
      const choice = await screen.findByRole("group", { name: "You saved other text in this field in another tab while you were editing here. Choose which text to keep." });
      expect(textIn(within(choice).getByRole("textbox", { name: "Sticky note The EHR's text now, saved in your other tab" }))).toBe(THEIRS);
    } finally {
      otherTab.close();
      switchCacheIdentity(queryClient, null);
    }
  });

  it("shows both texts at the field and saves nothing until the user chooses", async () => {
    const { choice } = await typeAndMeetConflict();
    expect(textIn(within(choice).getByRole("textbox", { name: "Sticky note" }))).toBe(`${STICKY_NOTE}${ADDED}`);
    expect(textIn(within(choice).getByRole("textbox", { name: "Sticky note The EHR's text now" }))).toBe(THEIRS);
    expect(screen.getByText("Not saved: a field was changed in the EHR; choose which text to keep")).toBeTruthy();
    expect(saveButton().hasAttribute("disabled")).toBe(true);
  });

  it("Keep my text (from the keyboard) keeps focus in the field and saves the user's text over the EHR's", async () => {
    const { user, choice } = await typeAndMeetConflict();
    within(choice).getByRole("button", { name: "Keep my text" }).focus();
    await user.keyboard("{Enter}");

    expect(screen.queryByRole("group", { name: CONFLICT_TITLE })).toBeNull();
    expect(document.activeElement).toBe(stickyNoteBox());
    expect(textIn(stickyNoteBox())).toBe(`${STICKY_NOTE}${ADDED}`);
    await user.keyboard("{Control>}s{/Control}");
    await screen.findByText(/^Saved /);
    expect(patchBodies(bff).at(-1)).toEqual({ stickyNoteDescription: `${STICKY_NOTE}${ADDED}`, baseline: { stickyNoteDescription: THEIRS } });
  });

  it("Use the EHR's text puts the EHR's text in the field and leaves nothing to save", async () => {
    const { user, choice } = await typeAndMeetConflict();
    await user.click(within(choice).getByRole("button", { name: "Use the EHR's text" }));

    expect(screen.queryByRole("group", { name: CONFLICT_TITLE })).toBeNull();
    expect(textIn(stickyNoteBox())).toBe(THEIRS);
    expect(document.activeElement).toBe(stickyNoteBox());
    expect(screen.queryByText("1 field changed")).toBeNull();
    expect(saveButton().hasAttribute("disabled")).toBe(true);
  });

  it("a re-read of the note updates untouched fields, says so, and turns a touched one into a choice", async () => {
    const EXAM_NOW = "Exam performed with dermatoscope; no other lesions.";
    const { user, rerender } = renderWithUser(<NoteEditorHarness note={NOTE} />);
    await user.type(stickyNoteBox(), ADDED);

    rerender(<NoteEditorHarness note={noteWith({ otherExamComments: EXAM_NOW, additionalHpiComments: "Onset after a new detergent." }, NOTE.version + 1)} />);
    const notice = screen.getByRole("region", { name: "The note changed in the EHR" });
    // Each field named as a sentence reads it, its initialisms kept.
    expect(notice.textContent).toContain("Fields you had not touched were updated (additional HPI comments, other exam comments). Your unsaved text was kept as it is.");
    expect(textIn(screen.getByRole("textbox", { name: "Other exam comments" }))).toBe(EXAM_NOW);
    expect(textIn(stickyNoteBox())).toBe(`${STICKY_NOTE}${ADDED}`);

    rerender(<NoteEditorHarness note={noteWith({ otherExamComments: EXAM_NOW, additionalHpiComments: "Onset after a new detergent.", stickyNoteDescription: THEIRS }, NOTE.version + 2)} />);
    expect(screen.getByRole("region", { name: "The note changed in the EHR" }).textContent).toContain("Text you were editing also changed there (sticky note): choose which text to keep at the field.");
    expect(screen.getByRole("group", { name: CONFLICT_TITLE })).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByRole("region", { name: "The note changed in the EHR" })).toBeNull();
  });
});

describe("unsaved text kept from earlier", () => {
  const KEPT = "Call the daughter on Monday with the pathology.";
  const draft: NoteDraftBody = { fields: { stickyNoteDescription: KEPT }, baseline: { stickyNoteDescription: STICKY_NOTE }, noteVersion: NOTE.version, updatedAt: "2026-11-20T14:30:00.000Z" };
  const notice = () => screen.getByRole("region", { name: "Unsaved text from earlier" });

  it("shows what it would change, and takes no typing until the user restores or discards it", async () => {
    const { user } = renderWithUser(<NoteEditorHarness note={NOTE} initialDraft={draft} />);
    expect(within(notice()).getByText(/^You have unsaved text from .+ on this note$/)).toBeTruthy();
    expect(within(notice()).getByText(KEPT)).toBeTruthy();
    expect(within(notice()).getByText(STICKY_NOTE)).toBeTruthy();
    expect(screen.getByText("Unsaved text from earlier: restore or discard it")).toBeTruthy();
    expect(screen.getAllByText("Restore or discard your earlier unsaved text first")).toHaveLength(4);

    await user.type(stickyNoteBox(), "typed over");
    expect(textIn(stickyNoteBox())).toBe(STICKY_NOTE);
  });

  it("Restore puts the text back in its field, focused, as unsaved changes", async () => {
    const { user } = renderWithUser(<NoteEditorHarness note={NOTE} initialDraft={draft} />);
    await user.click(within(notice()).getByRole("button", { name: "Restore" }));

    expect(screen.queryByRole("region", { name: "Unsaved text from earlier" })).toBeNull();
    expect(textIn(stickyNoteBox())).toBe(KEPT);
    await waitFor(() => expect(document.activeElement).toBe(stickyNoteBox()));
    expect(screen.getByText("Unsaved changes")).toBeTruthy();
    await user.type(stickyNoteBox(), "!");
    expect(textIn(stickyNoteBox())).toBe(`${KEPT}!`);
  });

  it("Discard asks first (Keep it, or Escape, keeps it), then lets the kept text go and opens the fields", async () => {
    const { user } = renderWithUser(<NoteEditorHarness note={NOTE} initialDraft={draft} />);
    await user.click(within(notice()).getByRole("button", { name: "Discard" }));
    const question = await screen.findByRole("alertdialog", { name: "Discard your unsaved text?" });
    await user.click(within(question).getByRole("button", { name: "Keep it" }));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(within(notice()).getByRole("button", { name: "Discard" })));

    await user.click(within(notice()).getByRole("button", { name: "Discard" }));
    await screen.findByRole("alertdialog", { name: "Discard your unsaved text?" });
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(notice()).toBeTruthy();
    expect(bff.calls("PUT", DRAFT_PATH)).toHaveLength(0);

    await user.click(within(notice()).getByRole("button", { name: "Discard" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Discard the text" }));
    expect(screen.queryByRole("region", { name: "Unsaved text from earlier" })).toBeNull();
    expect(textIn(stickyNoteBox())).toBe(STICKY_NOTE);
    // Released as it was shown: another tab of the user that typed there since keeps its text (ADR 0008).
    await waitFor(() => expect(bff.calls("PUT", DRAFT_PATH).map((call) => call.body)).toEqual([{ fields: {}, baseline: {}, noteVersion: NOTE.version, released: draft.fields }]));
    await waitFor(() => expect(document.activeElement).toBe(stickyNoteBox()));
    expect(screen.getByText("No unsaved changes")).toBeTruthy();
  });
});

describe("a note that cannot be changed", () => {
  const REASON = "This organization has not granted Tandem permission to change notes.";

  it("without permission: every field read-only, the reason in the save bar, no Save, nothing sent", async () => {
    const { user } = renderWithUser(<NoteEditorHarness note={NOTE} canEdit={false} cannotEditReason={REASON} />);
    expect(screen.getByText(`Read-only: ${REASON}`)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Save" })).toBeNull();
    for (const name of ["Additional HPI comments", "Other exam comments", "Impressions and plans comments", "Sticky note"]) {
      expect(screen.getByRole("textbox", { name }).hasAttribute("readonly")).toBe(true);
    }
    await user.type(stickyNoteBox(), "x");
    await user.keyboard("{Control>}s{/Control}");
    expect(textIn(stickyNoteBox())).toBe(STICKY_NOTE);
    expect(bff.calls("PATCH", NOTE_PATH)).toHaveLength(0);
  });

  it("signed in the EHR while the user typed: read-only, and the unsaved text offered to copy", async () => {
    const { user, rerender } = renderWithUser(<NoteEditorHarness note={NOTE} />);
    await user.type(stickyNoteBox(), ADDED);
    rerender(<NoteEditorHarness note={buildSignedNoteFixture()} />);

    expect(screen.getByText("Read-only: This note was signed in the EHR; it can no longer be changed here. Your unsaved text is below to copy.")).toBeTruthy();
    expect(stickyNoteBox().hasAttribute("readonly")).toBe(true);
    const copyBox = screen.getByRole("region", { name: "Your unsaved text" });
    await user.click(within(copyBox).getByRole("button", { name: "Copy my unsaved text" }));
    expect(await within(copyBox).findByText("Copied to the clipboard.")).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(`Sticky note:\n${STICKY_NOTE}${ADDED}`);
  });

  it("reopened signed with text kept from earlier: one notice shows the text and copies it, never Restore", async () => {
    const signed = buildSignedNoteFixture();
    const kept = "Call the daughter on Monday with the pathology.";
    const initialDraft: NoteDraftBody = { fields: { stickyNoteDescription: kept }, baseline: { stickyNoteDescription: STICKY_NOTE }, noteVersion: signed.version, updatedAt: "2026-11-20T14:30:00.000Z" };
    const { user } = renderWithUser(<NoteEditorHarness note={signed} initialDraft={initialDraft} />);

    const notice = screen.getByRole("region", { name: "Unsaved text from earlier" });
    expect(within(notice).getByText(kept)).toBeTruthy();
    expect(within(notice).queryByRole("button", { name: "Restore" })).toBeNull();
    // Told once: no second box saying the same beside it.
    expect(screen.queryByRole("region", { name: "Your unsaved text" })).toBeNull();
    expect(screen.getAllByRole("button", { name: "Copy my unsaved text" })).toHaveLength(1);
    await user.click(within(notice).getByRole("button", { name: "Copy my unsaved text" }));
    expect(await within(notice).findByText("Copied to the clipboard.")).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(`Sticky note:\n${kept}`);
  });
});
