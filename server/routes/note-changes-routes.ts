import type { Context, Hono } from "hono";
import { noteViewPutRequest, type NoteChangesResponse, type NoteViewResponse } from "#contract/app-api/note-changes.ts";
import { WRITABLE_NOTE_FIELDS, type Note } from "#contract/clinic-api/note.ts";
import { sectionDigestsOf } from "#contract/note/section-digests.ts";
import type { ClinicClient } from "../clinic/clinic-client.ts";
import type { AppEnv } from "../http/app-env.ts";
import { parseJsonBody } from "../http/validate.ts";
import { withKnownState } from "../notes/known-note-state.ts";
import { describeNoteChanges, NOTE_FIELD_RESOURCE_TYPE, noteFieldResourceId } from "../notes/note-changes.ts";
import type { Store } from "../store/store.ts";
import { accessAudit } from "./access-audit.ts";
import { noteAuthorizer } from "./note-routes.ts";

// What changed in a note since this user last looked at it in Tandem (issue
// 14 "What changed since you last looked"):
// - GET /api/notes/:id/changes compares the user's last view (the store's
//   note_views: the four writable fields as text, a digest per section) with
//   the note now, and names who changed what from the audit trail
//   (server/notes/note-changes.ts);
// - PUT /api/notes/:id/view records the note as the SPA shows it, after it
//   has shown what changed.
// Same access as the note routes (their authorizer): the note in the token's
// `note_id`, clinical roles only. Recording a view is not a write to the
// note, so it needs no `write:soap_notes`.
//
// A view keeps the fields' text, the same patient data a draft keeps, so it
// is kept for VIEW_RETENTION_MS after it was recorded and then purged
// (docs/security.md); an older one is not used even before the purge runs.

/** How long a user's last view of a note is kept: a month covers a note's way to signing. */
export const VIEW_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** Old views are purged on a recorded view, at most this often per process. */
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export interface NoteChangesRouteDeps {
  clinic: ClinicClient;
  store: Pick<Store, "noteViews" | "noteStates" | "audit">;
  now: () => number;
}

export function registerNoteChangesRoutes(api: Hono<AppEnv>, { clinic, store, now }: NoteChangesRouteDeps): void {
  const audit = accessAudit(store.audit, now);
  /** The note as the note routes show it: signed once the service has said so (server/notes/known-note-state.ts). */
  const readNote = async (organizationId: string, noteId: string): Promise<Note> => {
    const [read, known] = await Promise.all([clinic.read("GET /v1/notes/{noteId}", { organizationId, params: { noteId } }).then((answer) => answer.data()), store.noteStates.get(organizationId, noteId)]);
    return withKnownState(read, known);
  };
  const noteInContext = noteAuthorizer(readNote);

  let lastPurgeAt = Number.NEGATIVE_INFINITY;
  const purgeOldViews = async (c: Context<AppEnv>, at: number) => {
    if (at - lastPurgeAt < PURGE_INTERVAL_MS) return;
    lastPurgeAt = at;
    try {
      await store.noteViews.purgeSeenBefore(at - VIEW_RETENTION_MS);
    } catch (error) {
      c.get("logger").warn({ err: error }, "purging old note views failed");
    }
  };

  api.get("/notes/:id/changes", async (c) => {
    const { noteId, note: read } = await noteInContext(c);
    const { organizationId, userId, accountId } = c.get("session");
    const [note, stored] = await Promise.all([read ?? readNote(organizationId, noteId), store.noteViews.get(organizationId, userId, noteId)]);
    const view = stored !== null && stored.seenAt >= now() - VIEW_RETENTION_MS ? stored : null;
    const [digests, noteWrites, fieldWrites] = await Promise.all([
      sectionDigestsOf(note),
      view === null ? [] : store.audit.writesSince(organizationId, "note", [noteId], view.seenAt),
      view === null
        ? []
        : store.audit.writesSince(
            organizationId,
            NOTE_FIELD_RESOURCE_TYPE,
            WRITABLE_NOTE_FIELDS.map((field) => noteFieldResourceId(noteId, field)),
            view.seenAt,
          ),
    ]);
    // The answer carries the note's text, then and now: a read of the note.
    await audit.read(c, "note_changes", noteId);
    return c.json(describeNoteChanges({ view, note, digests, noteWrites, fieldWrites, caller: { userId, accountId } }) satisfies NoteChangesResponse);
  });

  api.put("/notes/:id/view", async (c) => {
    const { noteId } = await noteInContext(c);
    const body = await parseJsonBody(c, noteViewPutRequest);
    const { organizationId, userId } = c.get("session");
    const at = now();
    await Promise.all([
      store.noteViews.put({ organizationId, userId, noteId, fields: body.fields, sectionDigests: body.sectionDigests, noteUpdatedAt: body.noteUpdatedAt, seenAt: at }),
      purgeOldViews(c, at),
    ]);
    await audit.changed(c, "write", "note_view", noteId);
    return c.json({ seenAt: new Date(at).toISOString() } satisfies NoteViewResponse);
  });
}
