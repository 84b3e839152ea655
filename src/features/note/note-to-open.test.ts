import { describe, expect, it } from "vitest";
import type { Session } from "#contract/app-api/session.ts";
import { noteToOpen } from "./note-to-open.ts";

// What the Note tab opens, for the route's loader and the view alike.

const EHR_NOTE = "6f1d2c3b-8a4e-4f5a-9b6c-7d8e9f0a1b2c";
const LINKED_NOTE = "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d";

function sessionOf(roles: string[], noteId: string | null): Session {
  return {
    user: { id: "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", firstName: "Maria", lastName: "Chen", displayName: "Maria Chen, MD", title: "MD", roles },
    organization: { id: "org_a", installationStatus: "active", settings: {} },
    facilities: [],
    grantedScopes: [],
    context: { facilityId: null, patientId: null, noteId },
    capabilities: { canHoldSlots: true, canEditNotes: true, canReadPatients: true },
    tokenExpiresAt: "2099-01-01T00:00:00.000Z",
  };
}

describe("noteToOpen", () => {
  it("in the EHR opens the session's note, whatever the URL names", () => {
    expect(noteToOpen(sessionOf(["Physician"], EHR_NOTE), "embedded", { kind: "note", noteId: LINKED_NOTE })).toEqual({ kind: "note", noteId: EHR_NOTE });
    expect(noteToOpen(sessionOf(["Physician"], null), "embedded", { kind: "note", noteId: LINKED_NOTE })).toEqual({ kind: "none-in-ehr" });
  });

  it("outside the EHR opens the note the link names, the recent notes without one, and says when the link names none", () => {
    expect(noteToOpen(sessionOf(["Nurse Practitioner"], EHR_NOTE), "standalone", { kind: "note", noteId: LINKED_NOTE })).toEqual({ kind: "note", noteId: LINKED_NOTE });
    expect(noteToOpen(sessionOf(["Nurse Practitioner"], null), "standalone", { kind: "none" })).toEqual({ kind: "recent-notes" });
    expect(noteToOpen(sessionOf(["Nurse Practitioner"], null), "standalone", { kind: "malformed" })).toEqual({ kind: "bad-link" });
  });

  it("opens nothing for a role notes are not for", () => {
    expect(noteToOpen(sessionOf(["Front Desk"], EHR_NOTE), "embedded", { kind: "none" })).toEqual({ kind: "not-clinical" });
    expect(noteToOpen(sessionOf(["Scheduler"], null), "standalone", { kind: "note", noteId: LINKED_NOTE })).toEqual({ kind: "not-clinical" });
  });
});
