import * as z from "zod/mini";
import { anyId, storableText } from "../clinic-api/primitives.ts";
import { note, noteImage, task, WRITABLE_NOTE_FIELDS } from "../clinic-api/note.ts";

// The note routes of the BFF (DESIGN.md "The BFF's API", "Rules"):
// GET/PATCH /api/notes/:id, the draft routes, tasks and images. Only the note
// in the token's `note_id`, only clinical roles. The note is answered as the
// service gives it.

/** Text field lengths are not shown by the seeds; the bound is assumed (docs/assumed-contracts.md). */
export const MAX_NOTE_FIELD_LENGTH = 100_000;
/** A task description's bound, assumed likewise. */
export const MAX_TASK_DESCRIPTION_LENGTH = 4_000;
export const MAX_TASK_ASSIGNEES = 20;

const fieldText = z.string().check(z.maxLength(MAX_NOTE_FIELD_LENGTH, `must be at most ${MAX_NOTE_FIELD_LENGTH} characters`), storableText());

/** Some of the four writable fields, by name; any other key is refused. */
export const writableFieldValues = z.strictObject({
  additionalHpiComments: z.optional(fieldText),
  impressionsPlansComments: z.optional(fieldText),
  otherExamComments: z.optional(fieldText),
  stickyNoteDescription: z.optional(fieldText),
});
export type WritableFieldValues = z.infer<typeof writableFieldValues>;

/** Every writable field's value. */
export const allWritableFieldValues = z.object({
  additionalHpiComments: z.string(),
  impressionsPlansComments: z.string(),
  otherExamComments: z.string(),
  stickyNoteDescription: z.string(),
});
export type AllWritableFieldValues = z.infer<typeof allWritableFieldValues>;

export const noteResponse = z.object({ note });
export type NoteResponse = z.infer<typeof noteResponse>;

/**
 * PATCH /api/notes/:id: the fields being changed, and optionally `baseline`,
 * the values the user started from for those fields. The service's PATCH has
 * no precondition, so the BFF re-reads the note and refuses with 409
 * `conflict` (reason `stale_baseline`, {@link noteConflictDetails}) when a
 * baseline no longer matches.
 */
export const notePatchRequest = z.strictObject({
  ...writableFieldValues.shape,
  baseline: z.optional(writableFieldValues),
});
export type NotePatchRequest = z.infer<typeof notePatchRequest>;

/** Why a note change was refused with 409 `conflict`. */
export const NOTE_CONFLICT_REASONS = ["note_signed", "stale_baseline"] as const;
export type NoteConflictReason = (typeof NOTE_CONFLICT_REASONS)[number];

/** The extra fields of a 409 `conflict` answer to a note write, beside `{code, message, trace_id}` at the top level of the error body. */
export const noteConflictDetails = z.object({
  reason: z.enum(NOTE_CONFLICT_REASONS),
  /** The note's writable values now (all four). */
  current: allWritableFieldValues,
  /** The fields whose value is no longer the baseline (stale_baseline only). */
  conflictingFields: z.array(z.enum(WRITABLE_NOTE_FIELDS)),
  /** The note's status and version now. */
  noteStatus: z.string(),
  noteVersion: z.int(),
});
export type NoteConflictDetails = z.infer<typeof noteConflictDetails>;

/** A draft: the changed fields as typed, and what the user started from. */
export const noteDraft = z.object({
  fields: writableFieldValues,
  baseline: writableFieldValues,
  /** The note's version the user started from, when known. */
  noteVersion: z.nullable(z.int()),
  /** When the BFF stored it (ISO 8601). */
  updatedAt: z.string(),
});
export type NoteDraftBody = z.infer<typeof noteDraft>;

export const noteDraftPutRequest = z.strictObject({
  fields: writableFieldValues,
  baseline: writableFieldValues,
  /** The store keeps it in a 32-bit integer column. */
  noteVersion: z.nullable(z.int().check(z.minimum(0), z.maximum(2_147_483_647))),
  /**
   * Fields this tab stored before and no longer holds, with the text it stored: each goes from the draft only
   * while the draft still holds that text (another tab of the same user may have typed there since).
   */
  released: z.optional(writableFieldValues),
});
export type NoteDraftPutRequest = z.infer<typeof noteDraftPutRequest>;

/** GET answers `{draft: null}` when there is none. */
export const noteDraftResponse = z.object({ draft: z.nullable(noteDraft) });
export type NoteDraftResponse = z.infer<typeof noteDraftResponse>;
export const noteDraftDeleteResponse = z.object({ deleted: z.boolean() });

/**
 * POST /api/notes/:id/tasks. The acting provider is the token's `provider_id`:
 * a `providerId` in the body is ignored (never trusted), as are other unknown keys.
 */
export const taskCreateRequest = z.object({
  notes: z.string().check(
    z.trim(),
    z.minLength(1, "a task needs a description"),
    z.maxLength(MAX_TASK_DESCRIPTION_LENGTH, `must be at most ${MAX_TASK_DESCRIPTION_LENGTH} characters`),
    storableText(),
  ),
  assigneeIds: z
    .array(anyId)
    .check(z.minLength(1, "choose at least one assignee"), z.maxLength(MAX_TASK_ASSIGNEES, `at most ${MAX_TASK_ASSIGNEES} assignees`)),
  /**
   * The user chose to send a task although one with the same description and
   * assignees may already be in the EHR (its outcome is unknown): without it
   * such a task is refused with 409 `possible_duplicate`.
   */
  confirmPossibleDuplicate: z.optional(z.boolean()),
});
export type TaskCreateRequest = z.infer<typeof taskCreateRequest>;

export const taskResponse = z.object({ task });

/**
 * A task Tandem sent to the service whose answer never came back (or whose
 * record could not be kept): the EHR may have created it. The service has no
 * task read, so it stays so until someone sends it again (confirmed) or it is
 * past retention.
 */
export const unconfirmedTask = z.object({
  /** The write's id (its `Idempotency-Key`). */
  intentId: z.string(),
  notes: z.string(),
  assigneeIds: z.array(z.string()),
  /** When Tandem sent it (ISO 8601). */
  sentAt: z.string(),
  /** Sent by the user reading the list. */
  isOwn: z.boolean(),
});
export type UnconfirmedTask = z.infer<typeof unconfirmedTask>;

/** The tasks Tandem created on the note (the service has no task read). */
export const noteTasksResponse = z.object({
  tasks: z.array(task),
  /** Tasks whose outcome is unknown, oldest first. */
  unconfirmed: z.array(unconfirmedTask),
  /** Always `tandem`: tasks created elsewhere are not listed, and the UI says so. */
  source: z.literal("tandem"),
});
export type NoteTasksResponse = z.infer<typeof noteTasksResponse>;

export const noteImagesResponse = z.object({ images: z.array(noteImage) });
export const noteImageDeleteResponse = z.object({ image: noteImage });
