import type { NoteChangeActor, NoteChangesResponse, NoteFieldChange } from "#contract/app-api/note-changes.ts";
import { WRITABLE_NOTE_FIELDS, writableValues, type Note, type WritableNoteField } from "#contract/clinic-api/note.ts";
import { changedSections, type SectionDigests } from "#contract/note/section-digests.ts";
import { providerOfPersonKey } from "../auth/person-key.ts";
import type { AuditEntry, NoteView, PersonOfEntries } from "../store/store.ts";
import { tandemUserName } from "./tandem-user-name.ts";

// What changed in a note since a user's last view (ADR 0016), from three
// things only: the view the store kept (the writable fields' text and a
// digest per section), the note now, and the audit trail's writes since.
//
// Who: the service does not say who changed a note, so Tandem names only
// what its own audit trail shows. A note write through Tandem is recorded
// with the fields it wrote (resource `note_field`, same trace id). A field
// that changed with no Tandem write of it since the view changed outside
// Tandem: "changed in the EHR". A field Tandem users wrote is theirs (the EHR
// may have changed it again after them; nothing says so). A Tandem write
// with no record of its fields (written before fields were recorded) may
// explain any field, so such a field is "unclear" and names both.

/** The audit trail's resource type for one writable field of a note written through Tandem. */
export const NOTE_FIELD_RESOURCE_TYPE = "note_field";

/** The audit trail's resource id of a note's writable field: `<noteId>/<field>`. */
export const noteFieldResourceId = (noteId: string, field: WritableNoteField): string => `${noteId}/${field}`;

export interface NoteChangesInput {
  /** The user's last view, or null when there is none (or it is older than views are kept). */
  view: NoteView | null;
  /** The note now, as Tandem shows it. */
  note: Note;
  /** The note's section digests now. */
  digests: SectionDigests;
  /** Tandem's writes of the note after the view (resource `note`). */
  noteWrites: readonly AuditEntry[];
  /** Tandem's writes of the note's fields after the view (resource `note_field`). */
  fieldWrites: readonly AuditEntry[];
  /** Who is asking (their person key, and the account signed in): named "you". */
  caller: PersonOfEntries;
}

/**
 * Each person once, in the order they first wrote: an entry's person key
 * (ADR 0024); one from before person keys names an account, which is the
 * caller when it is the account they signed in with.
 */
function usersOf(entries: readonly AuditEntry[], caller: PersonOfEntries): string[] {
  return [...new Set(entries.map((entry) => (entry.accountId === null && entry.userId === caller.accountId ? caller.userId : entry.userId)))];
}

function actorsOf(userIds: readonly string[], note: Note, callerUserId: string): NoteChangeActor[] {
  const actors: NoteChangeActor[] = [];
  const names = new Set<string>();
  let unnamed = 0;
  for (const userId of userIds) {
    if (userId === callerUserId) continue;
    // A person key names the provider; an entry from before them, the host token's `sub`, which is the provider's id there.
    const name = tandemUserName(note, providerOfPersonKey(userId) ?? userId);
    if (name === null) unnamed += 1;
    else if (!names.has(name)) {
      names.add(name);
      actors.push({ kind: "tandem_user", name });
    }
  }
  return [...(userIds.includes(callerUserId) ? [{ kind: "you" as const }] : []), ...actors, ...(unnamed > 0 ? [{ kind: "other_tandem_users" as const, count: unnamed }] : [])];
}

function attribute(field: WritableNoteField, input: NoteChangesInput, fieldTraces: ReadonlySet<string>): Pick<NoteFieldChange, "attribution" | "changedBy"> {
  const { note, noteWrites, fieldWrites, caller } = input;
  const callerUserId = caller.userId;
  const resourceId = noteFieldResourceId(note.id, field);
  const writers = usersOf(fieldWrites.filter((entry) => entry.resourceId === resourceId), caller);
  const unrecorded = usersOf(noteWrites.filter((entry) => !fieldTraces.has(entry.traceId)), caller);
  if (writers.length > 0) return { attribution: "tandem", changedBy: actorsOf([...new Set([...writers, ...unrecorded])], note, callerUserId) };
  if (unrecorded.length > 0) return { attribution: "unclear", changedBy: [...actorsOf(unrecorded, note, callerUserId), { kind: "ehr" }] };
  return { attribution: "ehr", changedBy: [{ kind: "ehr" }] };
}

/** The answer of GET /api/notes/:id/changes. */
export function describeNoteChanges(input: NoteChangesInput): NoteChangesResponse {
  const { view, note, digests } = input;
  if (view === null) return { lastSeenAt: null, noteUpdatedAt: note.updatedAt, fields: [], sections: [] };
  const now = writableValues(note);
  const fieldTraces = new Set(input.fieldWrites.map((entry) => entry.traceId));
  const fields = WRITABLE_NOTE_FIELDS.flatMap((field): NoteFieldChange[] => {
    const before = view.fields[field];
    const after = now[field];
    if (before === undefined || before === after) return [];
    return [{ field, before, after, ...attribute(field, input, fieldTraces) }];
  });
  return {
    lastSeenAt: new Date(view.seenAt).toISOString(),
    noteUpdatedAt: note.updatedAt,
    fields,
    sections: changedSections(view.sectionDigests, digests).map((id) => ({ id })),
  };
}
