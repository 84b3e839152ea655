import { isClinicalRole, type Session } from "#contract/app-api/session.ts";
import type { AppLink } from "#src/bridge/app-link.ts";
import type { NoteLink } from "./recent/note-link.ts";

// What the Note tab opens, decided in one place for the route's loader (which
// reads that note before the view renders) and the view (which draws it). In
// the EHR the note is the verified session's (the host token's `note_id`),
// never the URL's; outside it, the `?noteId=` link names it, and without one
// the clinician's recent notes stand in (ADR 0015).

export type NoteToOpen =
  /** Notes are for clinical roles only (DESIGN.md "The host bridge" 4). */
  | { kind: "not-clinical" }
  | { kind: "none-in-ehr" }
  | { kind: "recent-notes" }
  | { kind: "bad-link" }
  | { kind: "note"; noteId: string };

export function noteToOpen(session: Session, appMode: AppLink["mode"], link: NoteLink): NoteToOpen {
  if (!isClinicalRole(session.user.roles)) return { kind: "not-clinical" };
  if (appMode === "embedded") return session.context.noteId === null ? { kind: "none-in-ehr" } : { kind: "note", noteId: session.context.noteId };
  switch (link.kind) {
    case "note":
      return { kind: "note", noteId: link.noteId };
    case "malformed":
      return { kind: "bad-link" };
    case "none":
      return { kind: "recent-notes" };
  }
}
