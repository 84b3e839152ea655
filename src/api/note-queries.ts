import { queryOptions, type QueryClient } from "@tanstack/react-query";
import * as z from "zod/mini";
import {
  noteConflictDetails,
  noteDraftResponse,
  noteImageDeleteResponse,
  noteImagesResponse,
  noteResponse,
  noteTasksResponse,
  taskResponse,
  type NoteConflictDetails,
  type NoteDraftPutRequest,
  type NotePatchRequest,
  type TaskCreateRequest,
} from "#contract/app-api/note.ts";
import { APP_ERROR_CODES } from "#contract/app-api/errors.ts";
import { SIGNED_NOTE_STATUS } from "#contract/clinic-api/note.ts";
import { ApiError, callBff, sendWhileLeaving } from "./bff-client.ts";
import { failingSystemOf } from "./failing-system.ts";
import { queryKeys } from "./query-keys.ts";

// The note view's calls (DESIGN.md "The BFF's API"). Keys from general to
// specific (STYLE.md 5, query-keys.ts); a live `note.changed` event
// invalidates the note's fields, images and tasks.

const notePath = (noteId: string) => `/api/notes/${encodeURIComponent(noteId)}`;

/** How often an open note is re-read: the service sends no note events, so a signature in the EHR is seen this way (and on focus). */
export const NOTE_REFRESH_MS = 20_000;

export const noteQuery = (noteId: string) =>
  queryOptions({
    queryKey: queryKeys.note.one(noteId),
    queryFn: ({ signal }) => callBff(notePath(noteId), noteResponse, { signal }),
    refetchInterval: NOTE_REFRESH_MS,
    refetchOnWindowFocus: "always",
  });

/**
 * The service refused a write because the note is signed: the whole view
 * (status, Ready to sign, editor, tasks, images) says signed from now on,
 * without waiting for a re-read. The BFF has recorded it, so the re-read
 * asked for here says signed too, whatever the service's mirror says.
 */
export function markNoteSigned(queryClient: QueryClient, noteId: string): void {
  queryClient.setQueryData(noteQuery(noteId).queryKey, (current) => (current ? { note: { ...current.note, status: SIGNED_NOTE_STATUS } } : current));
  void queryClient.invalidateQueries({ queryKey: queryKeys.note.one(noteId) });
}

export const noteDraftQuery = (noteId: string) =>
  queryOptions({
    queryKey: queryKeys.note.draft(noteId),
    queryFn: ({ signal }) => callBff(`${notePath(noteId)}/draft`, noteDraftResponse, { signal }),
    // Read once when the note opens; the editor owns the draft afterwards.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

export const noteTasksQuery = (noteId: string) =>
  queryOptions({
    queryKey: queryKeys.note.tasks(noteId),
    queryFn: ({ signal }) => callBff(`${notePath(noteId)}/tasks`, noteTasksResponse, { signal }),
  });

export const noteImagesQuery = (noteId: string) =>
  queryOptions({
    queryKey: queryKeys.note.images(noteId),
    queryFn: ({ signal }) => callBff(`${notePath(noteId)}/images`, noteImagesResponse, { signal }),
  });

/** Saves the changed fields; rejects with an `ApiError` (see {@link noteConflictOf} and {@link isSystemFailure}). */
export function patchNote(noteId: string, request: NotePatchRequest) {
  return callBff(notePath(noteId), noteResponse, { method: "PATCH", body: request });
}

export function saveNoteDraft(noteId: string, draft: NoteDraftPutRequest) {
  return callBff(`${notePath(noteId)}/draft`, noteDraftResponse, { method: "PUT", body: draft });
}

/** The draft sent as the page goes (a reload, a closed tab): fire and forget; false when it could not be sent. */
export function saveNoteDraftWhileLeaving(noteId: string, draft: NoteDraftPutRequest): boolean {
  return sendWhileLeaving(`${notePath(noteId)}/draft`, "PUT", draft);
}

export function createNoteTask(noteId: string, request: TaskCreateRequest) {
  return callBff(`${notePath(noteId)}/tasks`, taskResponse, { method: "POST", body: request });
}

/** A write whose outcome is unknown (the EHR may have done it), or a task like one that may be in the EHR already: the error's write id. */
export function unknownWriteOf(error: unknown): { code: "outcome_unknown" | "possible_duplicate"; intentId: string | null } | null {
  if (!(error instanceof ApiError)) return null;
  const { code, intent_id: intentId } = error.body;
  if (code !== APP_ERROR_CODES.outcomeUnknown && code !== APP_ERROR_CODES.possibleDuplicate) return null;
  return { code, intentId: intentId ?? null };
}

export function deleteNoteImage(noteId: string, imageId: string) {
  return callBff(`${notePath(noteId)}/images/${encodeURIComponent(imageId)}`, noteImageDeleteResponse, { method: "DELETE" });
}

/** The details of a 409 `conflict` on a note write: signed, or a field changed since the user started. */
export function noteConflictOf(error: unknown): NoteConflictDetails | null {
  if (!(error instanceof ApiError) || error.body.code !== "conflict") return null;
  const parsed = z.safeParse(noteConflictDetails, error.body);
  return parsed.success ? parsed.data : null;
}

/**
 * Why a note write that a retry may fix did not go through: which system failed (failing-system.ts), Tandem's
 * server restarting (`not_ready`, a deploy's drain) or not reached at all, Tandem not active for the organization
 * (reinstalling it is the way on), the service busy, or no answer in time (the write may have been applied).
 */
export type SaveFailureReason = "ehr" | "service" | "tandem" | "restarting" | "unreached" | "inactive" | "busy" | "unconfirmed";

export function saveFailureReasonOf(error: unknown): SaveFailureReason {
  if (!(error instanceof ApiError)) return "unreached";
  if (error.body.code === APP_ERROR_CODES.notReady) return "restarting";
  if (error.body.code === APP_ERROR_CODES.installationInactive) return "inactive";
  if (error.body.code === "upstream_timeout") return "unconfirmed";
  if (error.body.code === APP_ERROR_CODES.rateLimited || error.status === 429) return "busy";
  // Sent, and the answer lost or failed after: the change may be saved already (issue 35 item 4).
  if (error.body.code === APP_ERROR_CODES.outcomeUnknown) return "unconfirmed";
  const system = failingSystemOf(error);
  return system === "tandem" || system === "service" ? system : "ehr";
}

/** A write that failed because a system did (Tandem's server, the clinic data service, the EHR), not one refused: the text is kept and Retry offered. */
export function isSystemFailure(error: unknown): boolean {
  return failingSystemOf(error) !== null;
}
