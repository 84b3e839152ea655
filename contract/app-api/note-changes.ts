import * as z from "zod/mini";
import { WRITABLE_NOTE_FIELDS } from "../clinic-api/note.ts";
import { textTimestamp } from "../clinic-api/primitives.ts";
import { NOTE_SECTION_KEYS, SECTION_DIGEST_PATTERN } from "../note/section-digests.ts";
import { writableFieldValues } from "./note.ts";

// What changed in a note since this user last looked at it in Tandem (issue
// 14): GET /api/notes/:id/changes and PUT /api/notes/:id/view. Same access
// as the note routes: the note in the token's `note_id`, clinical roles.

/**
 * Who changed a field. `you`: the caller, through Tandem; `tandem_user`:
 * someone the note names (assigned providers, care team), through Tandem;
 * `other_tandem_users`: Tandem users the note does not name; `ehr`: outside
 * Tandem (the EHR or another app on the service).
 */
export const noteChangeActor = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("you") }),
  z.object({ kind: z.literal("tandem_user"), name: z.string() }),
  z.object({ kind: z.literal("other_tandem_users"), count: z.int().check(z.positive()) }),
  z.object({ kind: z.literal("ehr") }),
]);
export type NoteChangeActor = z.infer<typeof noteChangeActor>;

/**
 * How sure Tandem is of who changed a field. `ehr`: no Tandem write touched
 * the note's field since the last view, so the change came from outside.
 * `tandem`: Tandem users wrote that field since (the EHR may also have, after
 * them: the service does not say). `unclear`: Tandem wrote the note without a
 * record of which fields, so it may have been them or the EHR; `changedBy`
 * then lists both.
 */
export const NOTE_CHANGE_ATTRIBUTIONS = ["ehr", "tandem", "unclear"] as const;
export type NoteChangeAttribution = (typeof NOTE_CHANGE_ATTRIBUTIONS)[number];

export const noteFieldChange = z.object({
  field: z.enum(WRITABLE_NOTE_FIELDS),
  /** The text when the user last looked. */
  before: z.string(),
  /** The text now. */
  after: z.string(),
  attribution: z.enum(NOTE_CHANGE_ATTRIBUTIONS),
  changedBy: z.array(noteChangeActor),
});
export type NoteFieldChange = z.infer<typeof noteFieldChange>;

export const noteChangesResponse = z.object({
  /** When this user last looked at the note in Tandem (ISO 8601); null on a first view (or one older than the views are kept). */
  lastSeenAt: z.nullable(z.string()),
  /** The service's `updatedAt` of the note compared, so the SPA knows which note the answer is about. */
  noteUpdatedAt: z.string(),
  /** The writable fields whose text changed, in the order of WRITABLE_NOTE_FIELDS. */
  fields: z.array(noteFieldChange),
  /** Sections whose other content changed (never a writable field: those are in `fields`). Tandem writes nothing else, so these changed outside it. */
  sections: z.array(z.object({ id: z.enum(NOTE_SECTION_KEYS) })),
});
export type NoteChangesResponse = z.infer<typeof noteChangesResponse>;

const sectionDigest = z.string().check(z.regex(SECTION_DIGEST_PATTERN, "must be sha256: and 64 hex digits"));

/** PUT /api/notes/:id/view: the note as the SPA shows it now (contract/note/section-digests.ts computes the digests). */
export const noteViewPutRequest = z.strictObject({
  noteUpdatedAt: textTimestamp,
  /** All four writable fields, as shown. */
  fields: z.required(writableFieldValues),
  /** One digest per section. */
  sectionDigests: z.record(z.enum(NOTE_SECTION_KEYS), sectionDigest),
});
export type NoteViewPutRequest = z.infer<typeof noteViewPutRequest>;

export const noteViewResponse = z.object({
  /** When the BFF recorded the view (ISO 8601). */
  seenAt: z.string(),
});
export type NoteViewResponse = z.infer<typeof noteViewResponse>;
