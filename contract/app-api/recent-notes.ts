import * as z from "zod/mini";
import { rawUuid, utcTimestamp } from "../clinic-api/primitives.ts";

// GET /api/notes/recent (DESIGN.md "The BFF's API"): the notes this user
// opened or edited in Tandem in the session's organization, newest first,
// from the audit trail, each refreshed from the service on every call. For
// reaching a note outside the EHR without typing its id.

/** How many notes the list holds at most: each is one read of the service, whose rate limit every organization shares. */
export const RECENT_NOTES_LIMIT = 15;

export const recentNote = z.object({
  /** The note's id as the service gives it (v1: raw UUID); `/note?noteId=` opens it. */
  noteId: rawUuid,
  /** The patient as the note names them. */
  patient: z.object({
    firstName: z.string(),
    middleName: z.nullable(z.string()),
    lastName: z.string(),
  }),
  /** The note's `visitDate`, as ISO 8601 UTC. */
  visitAt: utcTimestamp,
  /** The facility of the visit; its IANA zone is the clock the visit is shown on. */
  facility: z.object({ id: z.string(), name: z.string(), timezone: z.string() }),
  /** The note's status, with what Tandem knows laid over the service's read: once the service has said signed, always `signed`. */
  status: z.string(),
  /** When this user last opened or changed it in Tandem (ISO 8601 UTC). */
  lastOpenedAt: utcTimestamp,
  /** Whether this user ever changed it through Tandem: saved a field, or kept or discarded a draft of it. */
  edited: z.boolean(),
});
export type RecentNote = z.infer<typeof recentNote>;

export const recentNotesResponse = z.object({
  /** Newest first (`lastOpenedAt`), each note once. */
  notes: z.array(recentNote),
  meta: z.object({
    /** At most this many of the user's latest notes were looked at. */
    limit: z.int(),
    /** Of those, how many were left out: the service no longer has them, refuses them, or they are no longer assigned to the user. */
    unavailable: z.int(),
  }),
});
export type RecentNotesResponse = z.infer<typeof recentNotesResponse>;
