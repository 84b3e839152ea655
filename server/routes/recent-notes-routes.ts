import type { Hono } from "hono";
import { RECENT_NOTES_LIMIT, type RecentNotesResponse } from "#contract/app-api/recent-notes.ts";
import { type Note } from "#contract/clinic-api/note.ts";
import { isSameId } from "#contract/ids.ts";
import { APP_ERROR_CODES } from "#contract/app-api/errors.ts";
import { requireClinicalRole } from "../auth/scopes.ts";
import type { ClinicClient } from "../clinic/clinic-client.ts";
import type { AppEnv } from "../http/app-env.ts";
import { AppError } from "../http/app-error.ts";
import { createNoteReader } from "../notes/note-reader.ts";
import { mapAtMost, readIfAvailable, RECENT_NOTE_READS_AT_ONCE, toRecentNote } from "../notes/recent-notes.ts";
import type { Store } from "../store/store.ts";

// GET /api/notes/recent (DESIGN.md "The BFF's API"; ADR 0015): outside the
// EHR, the notes this user opened or edited in Tandem in this organization,
// newest first, so nobody has to type a note id. Organization and user come
// from the verified session only. The list is the user's own audit trail;
// each note is read afresh from the service (notes are never cached) with
// what Tandem knows of its state laid over, and kept only while the note
// routes would open it: a clinical role, and in standalone mode a note
// assigned to the user's provider. Inside the EHR (a host token) the note
// comes from the EHR's context and the note routes open no other, so the
// list is refused there rather than showing notes that would not open
// (docs/decisions/0015-recent-notes.md).

/** The audit trail's resource types that mean "opened or edited this note". */
const NOTE_RESOURCE_TYPES = ["note", "note_draft"] as const;

export interface RecentNotesRouteDeps {
  clinic: ClinicClient;
  store: Pick<Store, "noteStates" | "audit">;
  now: () => number;
}

export function registerRecentNotesRoutes(api: Hono<AppEnv>, { clinic, store, now }: RecentNotesRouteDeps): void {
  const noteReader = createNoteReader({ clinic, noteStates: store.noteStates, now });
  api.get("/notes/recent", async (c) => {
    requireClinicalRole(c);
    const session = c.get("session");
    if (session.kind === "host") {
      throw new AppError(403, "forbidden", "Inside the EHR, Tandem opens the note the EHR has open; the list of recent notes is for signing in outside it");
    }
    const providerId = session.providerId;
    if (providerId === null) {
      throw new AppError(403, APP_ERROR_CODES.roleForbidden, "Your sign-in does not name you as a provider in this organization, so its notes are not open to you");
    }
    const { organizationId, userId, accountId } = session;

    const readNote = (noteId: string): Promise<Note> => noteReader.read(organizationId, noteId);

    const recent = await store.audit.recentResources(organizationId, { userId, accountId }, NOTE_RESOURCE_TYPES, RECENT_NOTES_LIMIT);
    const reads = await mapAtMost(recent, RECENT_NOTE_READS_AT_ONCE, (entry) => readIfAvailable(entry.resourceId, readNote));
    const notes = recent.flatMap((entry, index) => {
      const note = reads[index];
      // Reassigned since the user opened it: the note routes would refuse it now, so it is not offered.
      if (!note || !note.assignedProviders.some((provider) => isSameId(provider.id, providerId))) return [];
      const row = toRecentNote(note, entry);
      return row ? [row] : [];
    });

    // Names and visit dates of these patients were shown: a PHI read of each, under its own type so the list does not reorder itself.
    const traceId = c.get("traceId");
    // Committed before the list is answered; the rows share one insert.
    await Promise.all(notes.map((note) => store.audit.record({ at: now(), organizationId, userId, accountId, action: "read", resourceType: "note_summary", resourceId: note.noteId, traceId })));

    const body: RecentNotesResponse = { notes, meta: { limit: RECENT_NOTES_LIMIT, unavailable: recent.length - notes.length } };
    return c.json(body);
  });
}
