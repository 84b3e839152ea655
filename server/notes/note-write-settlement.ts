import * as z from "zod/mini";
import type { UnconfirmedTask } from "#contract/app-api/note.ts";
import { notePatchBody, WRITABLE_NOTE_FIELDS, writableValues, type Note, type NoteImage } from "#contract/clinic-api/note.ts";
import { idKey } from "#contract/ids.ts";
import type { WriteIntent } from "../store/store.ts";

// What a note's write recorded as an intent asked for, and what a later read
// of the service says of it (issue 35 item 4), free of I/O. A note PATCH is
// carried out when every field it sent holds the text it sent; an image
// delete when the image is no longer on the note. A task cannot be settled
// by a read: the service has no task read and its note read carries no
// tasks (seed 000 "Note"), so an unknown task stays so until the user sends
// it again, warned that it may duplicate.

const taskIntent = z.object({ notes: z.string(), assigneeIds: z.array(z.string()), providerId: z.string() });
export type TaskIntentRequest = z.infer<typeof taskIntent>;
const imageDeleteIntent = z.object({ imageId: z.string() });

export function taskIntentRequest(notes: string, assigneeIds: readonly string[], providerId: string): TaskIntentRequest {
  return { notes, assigneeIds: [...assigneeIds], providerId };
}

const assigneeSet = (ids: readonly string[]) => [...new Set(ids.map(idKey))].sort().join(",");

/** The open task write with this description and these assignees (in any order or id form), if any. */
export function matchingTaskIntent(intents: readonly WriteIntent[], notes: string, assigneeIds: readonly string[]): WriteIntent | undefined {
  const wanted = assigneeSet(assigneeIds);
  return intents.find((intent) => {
    const request = z.safeParse(taskIntent, intent.request);
    return request.success && request.data.notes === notes && assigneeSet(request.data.assigneeIds) === wanted;
  });
}

/** The task as the list shows it while its outcome is unknown. */
export function unconfirmedTaskOf(intent: WriteIntent, userId: string): UnconfirmedTask | null {
  const request = z.safeParse(taskIntent, intent.request);
  if (!request.success) return null;
  return { intentId: intent.id, notes: request.data.notes, assigneeIds: request.data.assigneeIds, sentAt: new Date(intent.createdAt).toISOString(), isOwn: intent.userId === userId };
}

export function imageDeleteIntentRequest(imageId: string): z.infer<typeof imageDeleteIntent> {
  return { imageId };
}

/** Settled by the note as read now: `done` when every sent field holds the sent text, else `refused` (not carried out). */
export function patchSettlement(intent: WriteIntent, note: Note): "done" | "refused" | null {
  const sent = z.safeParse(notePatchBody, intent.request);
  if (!sent.success) return null;
  const current = writableValues(note);
  return WRITABLE_NOTE_FIELDS.every((field) => sent.data[field] === undefined || sent.data[field] === current[field]) ? "done" : "refused";
}

/** Settled by the note's images as read now: `done` when the image is gone, else `refused` (not carried out). */
export function imageDeleteSettlement(intent: WriteIntent, images: readonly NoteImage[]): "done" | "refused" | null {
  const sent = z.safeParse(imageDeleteIntent, intent.request);
  if (!sent.success) return null;
  return images.some((image) => idKey(image.id) === idKey(sent.data.imageId)) ? "refused" : "done";
}
