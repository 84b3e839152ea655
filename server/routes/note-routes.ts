import type { Context, Hono } from "hono";
import * as z from "zod/mini";
import { noteDraftPutRequest, notePatchRequest, taskCreateRequest, type NoteDraftBody } from "#contract/app-api/note.ts";
import { task as taskSchema, type Note, type NoteImage, type Task } from "#contract/clinic-api/note.ts";
import { noteId as noteIdSchema, noteImageId } from "#contract/clinic-api/primitives.ts";
import { isSameId } from "#contract/ids.ts";
import { APP_ERROR_CODES } from "#contract/app-api/errors.ts";
import { requireClinicalRole, requireGrantedScope } from "../auth/scopes.ts";
import type { ClinicClient } from "../clinic/clinic-client.ts";
import { UpstreamError } from "../clinic/upstream-error.ts";
import { outcomeOfFailedWrite } from "../clinic/write-outcome.ts";
import type { LiveEventPublisher } from "../events/live-event-bus.ts";
import type { AppEnv } from "../http/app-env.ts";
import { AppError, badRequest } from "../http/app-error.ts";
import { parseJsonBody, parsePathParam } from "../http/validate.ts";
import { accessAudit } from "./access-audit.ts";
import { createNoteReader } from "../notes/note-reader.ts";
import { conflictWith, draftAfterSave, planNoteChange, signedConflict } from "../notes/note-change.ts";
import { createNoteWriteLog, type NoteWriteLog } from "../notes/note-write-log.ts";
import { outcomeUnknownError } from "../http/outcome-unknown-error.ts";
import { imageDeleteIntentRequest, imageDeleteSettlement, matchingTaskIntent, patchSettlement, taskIntentRequest, unconfirmedTaskOf } from "../notes/note-write-settlement.ts";
import { NOTE_FIELD_RESOURCE_TYPE, noteFieldResourceId } from "../notes/note-changes.ts";
import type { NoteDraft, Store, WriteIntent } from "../store/store.ts";
import { StoreUnavailableError } from "../store/store-unavailable.ts";

// The note routes (DESIGN.md "The BFF's API", "The host bridge" 4, "Rules"):
// only the note in the token's `note_id`, only clinical roles, reads too;
// writes need `write:soap_notes`. The service's PATCH has no precondition, so
// a change carrying a `baseline` is checked against a re-read of the note and
// refused with 409 and the note's values now when it is stale. Notes are never
// cached, but once the service has said a note is signed (a 409 on a write,
// or a read) the store keeps it and every later read answers signed, even
// while the service's mirror still lags (server/notes/known-note-state.ts).
// Every access is recorded in the audit trail.

const WRITE_SCOPE = "write:soap_notes";

export interface NoteRouteDeps {
  clinic: ClinicClient;
  store: Pick<Store, "noteDrafts" | "tasks" | "noteStates" | "audit" | "writeIntents">;
  /** The live-event bus: the note's change reaches the streams of every BFF process. */
  live: LiveEventPublisher;
  now: () => number;
}

/**
 * The note a request may touch, after the role check. Embedded: only the
 * token's `note_id` (403 for any other). Standalone (no EHR context): a note
 * assigned to the user's provider in the organization, as the sign-in's
 * profile names it (DESIGN.md "Standalone mode"), checked on a fresh read,
 * which is handed on so the route does not read the note again.
 */
export function noteAuthorizer(readNote: (organizationId: string, noteId: string) => Promise<Note>) {
  return async (c: Context<AppEnv>): Promise<{ noteId: string; note: Note | null }> => {
    requireClinicalRole(c);
    const session = c.get("session");
    if (session.kind === "host" && session.noteId === null) throw new AppError(403, "forbidden", "No note is open in the EHR: open the note there first");
    const requested = parsePathParam(c, "id", noteIdSchema, "noteId");
    if (session.kind === "host") {
      if (requested.toLowerCase() !== session.noteId?.toLowerCase()) throw new AppError(403, "forbidden", "Tandem opens only the note that is open in the EHR");
      return { noteId: requested.toLowerCase(), note: null };
    }
    const providerId = session.providerId;
    if (providerId === null) throw new AppError(403, "forbidden", "Your sign-in does not name you as a provider in this organization, so its notes are not open to you");
    const note = await readNote(session.organizationId, requested.toLowerCase());
    if (!note.assignedProviders.some((provider) => isSameId(provider.id, providerId))) throw new AppError(403, "forbidden", "This note is not assigned to you");
    return { noteId: requested.toLowerCase(), note };
  };
}

/**
 * A write the service refused before acting, or that never left the BFF, in
 * words the user can act on; other failures pass through. A write that may
 * have been carried out never comes here (outcomeUnknownError).
 */
function writeFailure(error: unknown, what: string): unknown {
  if (!(error instanceof UpstreamError)) return error;
  const trace = error.upstreamTraceId ? { upstream_trace_id: error.upstreamTraceId } : {};
  if (error.code === "upstream_unavailable" && error.upstreamStatus === null) {
    return new AppError(503, error.code, `The clinic data service could not be reached, so ${what} was not sent. Your text is kept: try again.`, trace);
  }
  return error;
}

/** The log of one request's writes; a settlement the store cannot keep is logged (the row left `pending` reads as unknown later). */
function writeLogOf(c: Context<AppEnv>, store: NoteRouteDeps["store"], now: () => number): NoteWriteLog {
  return createNoteWriteLog(store.writeIntents, now, (error, intentId) => {
    const storeReason = error instanceof StoreUnavailableError ? error.reason : "error";
    c.get("logger").warn({ intentId, storeReason }, "the store could not settle a write's outcome; it reads as unknown until a later read settles it");
  });
}

const draftBody = (draft: NoteDraft): NoteDraftBody => ({
  fields: draft.fields,
  baseline: draft.baseline,
  noteVersion: draft.noteVersion,
  updatedAt: new Date(draft.updatedAt).toISOString(),
});

export function registerNoteRoutes(api: Hono<AppEnv>, { clinic, store, live, now }: NoteRouteDeps): void {
  const audit = accessAudit(store.audit, now);
  const announce = (organizationId: string, noteId: string) => live.publish(organizationId, { type: "note.changed", noteId });
  // Tells the open views the first time Tandem learns the note is signed.
  const notes = createNoteReader({ clinic, noteStates: store.noteStates, now, onLearnedSigned: announce });
  const readNote = notes.read;
  const learnSigned = notes.learnSigned;
  const knownSigned = notes.isKnownSigned;
  const noteInContext = noteAuthorizer(readNote);

  api.get("/notes/:id", async (c) => {
    const { noteId, note: read } = await noteInContext(c);
    const note = read ?? (await readNote(c.get("session").organizationId, noteId));
    await settleByRead(writeLogOf(c, store, now), c.get("session").organizationId, "note_patch", noteId, (intent) => patchSettlement(intent, note));
    await audit.read(c, "note", noteId);
    return c.json({ note });
  });

  api.patch("/notes/:id", async (c) => {
    const { noteId, note: read } = await noteInContext(c);
    requireGrantedScope(c, WRITE_SCOPE);
    const change = planNoteChange(await parseJsonBody(c, notePatchRequest));
    if ("error" in change) throw badRequest(change.error);
    const session = c.get("session");
    const before = read ?? (await readNote(session.organizationId, noteId));
    const refusal = conflictWith(before, change);
    if (refusal) throw noteConflict(refusal);
    const writes = writeLogOf(c, store, now);
    const intentId = await writes.begin({ organizationId: session.organizationId, userId: session.userId, kind: "note_patch", subjectId: noteId, request: change.upstreamBody });
    let saved: Note;
    try {
      saved = await clinic.send("PATCH /v1/notes/{noteId}", { organizationId: session.organizationId, params: { noteId }, body: change.upstreamBody });
    } catch (error) {
      const outcome = outcomeOfFailedWrite(error);
      await writes.settle(session.organizationId, intentId, outcome);
      // The EHR knew it was signed before the service's mirror did.
      if (error instanceof UpstreamError && error.code === "conflict") {
        await learnSigned(session.organizationId, noteId, "write_conflict");
        throw noteConflict(signedConflict(before));
      }
      if (outcome === "unknown") {
        // The note may have changed: every tab on it reads it again, which settles the write.
        announce(session.organizationId, noteId);
        throw outcomeUnknownError(error, intentId, { mayHave: "The EHR may have saved the change.", next: "Your text is kept; the note's next read shows whether it was saved." });
      }
      throw writeFailure(error, "the change");
    }
    await writes.settle(session.organizationId, intentId, "done");
    await Promise.all([
      audit.changed(c, "write", "note", noteId),
      ...change.changedFields.map((field) => audit.changed(c, "write", NOTE_FIELD_RESOURCE_TYPE, noteFieldResourceId(noteId, field))),
    ]);
    try {
      const draft = await store.noteDrafts.get(session.organizationId, session.userId, noteId);
      // Conditional on the draft still being the one read: an autosave landing meanwhile holds newer text and stays.
      if (draft) await store.noteDrafts.replaceIfUnchanged(draft, draftAfterSave(draft, change.upstreamBody, now()));
    } catch (error) {
      // The EHR has the change: a 503 now would tell the user it was not saved. The draft left behind holds
      // text the note already has, which the SPA only cleans up (editor-state.ts, initialEditorState).
      if (!(error instanceof StoreUnavailableError)) throw error;
      c.get("logger").warn({ storeReason: error.reason }, "the store could not answer; the saved note's draft is left to clean up");
    }
    announce(session.organizationId, noteId);
    return c.json({ note: saved });
  });

  api.get("/notes/:id/draft", async (c) => {
    const { noteId } = await noteInContext(c);
    const session = c.get("session");
    const draft = await store.noteDrafts.get(session.organizationId, session.userId, noteId);
    await audit.read(c, "note_draft", noteId);
    return c.json({ draft: draft ? draftBody(draft) : null });
  });

  api.put("/notes/:id/draft", async (c) => {
    const { noteId } = await noteInContext(c);
    const body = await parseJsonBody(c, noteDraftPutRequest);
    for (const field of Object.keys(body.baseline)) {
      if (!(field in body.fields)) throw badRequest(`baseline.${field}: a baseline is only for a field in the draft`);
    }
    for (const field of Object.keys(body.released ?? {})) {
      if (field in body.fields) throw badRequest(`released.${field}: a field is either in the draft or released, not both`);
    }
    const session = c.get("session");
    // Kept even for a signed note: text typed before the signature reached Tandem is the user's to copy (never to save).
    // Merged by field: each tab of the user sends only the fields it holds (store.ts).
    const draft: NoteDraft = { organizationId: session.organizationId, userId: session.userId, noteId, fields: body.fields, baseline: body.baseline, noteVersion: body.noteVersion, updatedAt: now() };
    const stored = await store.noteDrafts.put(draft, body.released);
    await audit.changed(c, "write", "note_draft", noteId);
    return c.json({ draft: stored ? draftBody(stored) : null });
  });

  api.delete("/notes/:id/draft", async (c) => {
    const { noteId } = await noteInContext(c);
    const session = c.get("session");
    const deleted = await store.noteDrafts.delete(session.organizationId, session.userId, noteId);
    await audit.changed(c, "delete", "note_draft", noteId);
    return c.json({ deleted });
  });

  api.get("/notes/:id/tasks", async (c) => {
    const { noteId } = await noteInContext(c);
    const session = c.get("session");
    const [created, unknown] = await Promise.all([store.tasks.listByNote(session.organizationId, noteId), writeLogOf(c, store, now).unsettled(session.organizationId, "task", noteId)]);
    await audit.read(c, "task", noteId);
    const unconfirmed = unknown.flatMap((intent) => unconfirmedTaskOf(intent, session.userId) ?? []);
    return c.json({ tasks: created.map((entry) => z.parse(taskSchema, entry.task)), unconfirmed, source: "tandem" as const });
  });

  api.post("/notes/:id/tasks", async (c) => {
    const { noteId } = await noteInContext(c);
    requireGrantedScope(c, WRITE_SCOPE);
    const request = await parseJsonBody(c, taskCreateRequest);
    const session = c.get("session");
    const actingProviderId = session.providerId;
    if (actingProviderId === null) throw new AppError(403, APP_ERROR_CODES.roleForbidden, "Your sign-in does not name you as a provider in this organization, so you cannot create tasks");
    if (await knownSigned(session.organizationId, noteId)) throw signedNoteRefusal("tasks can no longer be created on it from Tandem");
    const writes = writeLogOf(c, store, now);
    // Nothing is sent twice without the user's choice: a task like one the EHR may have created already needs it.
    const earlier = matchingTaskIntent(await writes.open(session.organizationId, "task", noteId), request.notes, request.assigneeIds);
    if (earlier && request.confirmPossibleDuplicate !== true) {
      throw new AppError(
        409,
        APP_ERROR_CODES.possibleDuplicate,
        "Tandem sent this task to the EHR before and got no answer, so the EHR may have created it already. Check the note's tasks in the EHR; send it again only if it is not there, as it may create a second task.",
        { intent_id: earlier.id },
      );
    }
    // Sent again under the earlier write's key: a service that honours Idempotency-Key answers the first task.
    const intentId =
      earlier?.id ??
      (await writes.begin({ organizationId: session.organizationId, userId: session.userId, kind: "task", subjectId: noteId, request: taskIntentRequest(request.notes, request.assigneeIds, actingProviderId) }));
    let created: Task;
    try {
      // The acting provider is the token's, whatever the body says (DESIGN.md "The host bridge" 3).
      created = await clinic.send("POST /v2/tasks", {
        organizationId: session.organizationId,
        body: { noteId, providerId: actingProviderId, notes: request.notes, assigneeIds: request.assigneeIds },
        idempotencyKey: intentId,
      });
    } catch (error) {
      const outcome = outcomeOfFailedWrite(error);
      // A refused resend says nothing of the first send, which may have created the task: that stays unknown.
      if (!(earlier && outcome === "refused")) await writes.settle(session.organizationId, intentId, outcome);
      if (error instanceof UpstreamError && error.code === "conflict") {
        await learnSigned(session.organizationId, noteId, "write_conflict");
        throw signedNoteRefusal("tasks can no longer be created on it from Tandem");
      }
      if (outcome === "unknown") {
        // Listed as unconfirmed from now: the user's other tabs, and others on the note, read the tasks again.
        announce(session.organizationId, noteId);
        throw outcomeUnknownError(error, intentId, {
          mayHave: "The EHR may have created the task.",
          next: "Check the note's tasks in the EHR before sending it again: Tandem lists it as unconfirmed. Your text is kept.",
        });
      }
      throw writeFailure(error, "the task");
    }
    try {
      await store.tasks.insert({ organizationId: session.organizationId, noteId, taskId: created.id, createdBy: session.userId, task: created, createdAt: now() });
    } catch (error) {
      // Created in the EHR: "try again" would create it twice. Listed as unconfirmed where the store can still say so.
      await writes.settle(session.organizationId, intentId, "unknown");
      announce(session.organizationId, noteId);
      throw outcomeUnknownError(error, intentId, {
        mayHave: "The EHR created the task, but Tandem could not record it, so Tandem's list may show it as unconfirmed.",
        next: "Do not create it again.",
      });
    }
    await writes.settle(session.organizationId, intentId, "done", created.id);
    await audit.changed(c, "write", "task", created.id);
    announce(session.organizationId, noteId);
    return c.json({ task: created });
  });

  api.get("/notes/:id/images", async (c) => {
    const { noteId } = await noteInContext(c);
    const { images } = (await clinic.read("GET /v3/notes/{noteId}/images", { organizationId: c.get("session").organizationId, params: { noteId } })).data();
    await settleByRead(writeLogOf(c, store, now), c.get("session").organizationId, "image_delete", noteId, (intent) => imageDeleteSettlement(intent, images));
    await audit.read(c, "note_image", noteId);
    return c.json({ images });
  });

  api.delete("/notes/:id/images/:imageId", async (c) => {
    // Before the note is read (outside the EHR, to check it is the user's).
    const imageId = parsePathParam(c, "imageId", noteImageId);
    const { noteId } = await noteInContext(c);
    requireGrantedScope(c, WRITE_SCOPE);
    const session = c.get("session");
    const imagesRefusal = () => new AppError(409, "conflict", "This note is signed in the EHR, so its images can no longer be deleted", { reason: "note_signed" });
    if (await knownSigned(session.organizationId, noteId)) throw imagesRefusal();
    const writes = writeLogOf(c, store, now);
    const intentId = await writes.begin({ organizationId: session.organizationId, userId: session.userId, kind: "image_delete", subjectId: noteId, request: imageDeleteIntentRequest(imageId) });
    let image: NoteImage;
    try {
      image = await clinic.send("DELETE /v3/notes/{noteId}/images/{imageId}", { organizationId: session.organizationId, params: { noteId, imageId } });
    } catch (error) {
      const isGone = error instanceof UpstreamError && error.code === "not_found";
      // Gone is what the user asked for, whoever deleted it (an earlier try of this very delete whose answer was lost, say).
      const outcome = isGone ? "done" : outcomeOfFailedWrite(error);
      await writes.settle(session.organizationId, intentId, outcome);
      if (error instanceof UpstreamError && error.code === "conflict") {
        await learnSigned(session.organizationId, noteId, "write_conflict");
        throw imagesRefusal();
      }
      if (isGone) throw new AppError(404, "not_found", "That image is no longer on this note");
      if (outcome === "unknown") {
        announce(session.organizationId, noteId);
        throw outcomeUnknownError(error, intentId, { mayHave: "The EHR may have deleted the image.", next: "The note's images, read again, show whether it is gone." });
      }
      throw writeFailure(error, "the deletion");
    }
    await writes.settle(session.organizationId, intentId, "done", image.id);
    await audit.changed(c, "delete", "note_image", image.id);
    announce(session.organizationId, noteId);
    return c.json({ image });
  });
}

/** Settles the note's writes of a kind whose outcome was unknown by what the service's read shows now. */
async function settleByRead(writes: NoteWriteLog, organizationId: string, kind: "note_patch" | "image_delete", noteId: string, settlementOf: (intent: WriteIntent) => "done" | "refused" | null): Promise<void> {
  for (const intent of await writes.unsettled(organizationId, kind, noteId)) {
    const outcome = settlementOf(intent);
    if (outcome !== null) await writes.settle(organizationId, intent.id, outcome);
  }
}

/** A write to a note Tandem knows is signed, refused before the service is asked. */
function signedNoteRefusal(consequence: string): AppError {
  return new AppError(409, "conflict", `This note is signed in the EHR, so ${consequence}`, { reason: "note_signed" });
}

function noteConflict(details: ReturnType<typeof signedConflict>): AppError {
  const message =
    details.reason === "note_signed"
      ? "This note is signed in the EHR and can no longer be changed here"
      : `Someone else changed ${details.conflictingFields.join(", ")} since you started: compare and choose which text to keep`;
  return new AppError(409, "conflict", message, { ...details });
}
