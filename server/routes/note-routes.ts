import type { Context, Hono } from "hono";
import * as z from "zod/mini";
import { noteDraftPutRequest, notePatchRequest, taskCreateRequest, type NoteDraftBody } from "#contract/app-api/note.ts";
import { task as taskSchema, type Note } from "#contract/clinic-api/note.ts";
import { noteId as noteIdSchema, noteImageId } from "#contract/clinic-api/primitives.ts";
import { isSameId } from "#contract/ids.ts";
import { APP_ERROR_CODES } from "#contract/app-api/errors.ts";
import { requireClinicalRole, requireGrantedScope } from "../auth/scopes.ts";
import type { ClinicClient } from "../clinic/clinic-client.ts";
import { UpstreamError } from "../clinic/upstream-error.ts";
import type { LiveEventPublisher } from "../events/live-event-bus.ts";
import type { AppEnv } from "../http/app-env.ts";
import { AppError, badRequest, storeUnavailable } from "../http/app-error.ts";
import { parseJsonBody, parsePathParam } from "../http/validate.ts";
import { accessAudit } from "./access-audit.ts";
import { createNoteReader } from "../notes/note-reader.ts";
import { conflictWith, draftAfterSave, planNoteChange, signedConflict } from "../notes/note-change.ts";
import { NOTE_FIELD_RESOURCE_TYPE, noteFieldResourceId } from "../notes/note-changes.ts";
import type { NoteDraft, Store } from "../store/store.ts";
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
  store: Pick<Store, "noteDrafts" | "tasks" | "noteStates" | "audit">;
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

/** A write the EHR did not take, in words the user can act on; other failures pass through. */
function writeFailure(error: unknown, what: string): unknown {
  if (!(error instanceof UpstreamError)) return error;
  const trace = error.upstreamTraceId ? { upstream_trace_id: error.upstreamTraceId } : {};
  switch (error.code) {
    case "server_unresponsive":
      return new AppError(503, error.code, `The EHR did not answer, so ${what} was not saved. Your text is kept: try again.`, trace);
    case "unexpected_integration_error":
      return new AppError(502, error.code, `The EHR did not take ${what}: nothing was saved there. Your text is kept: try again.`, trace);
    case "upstream_unavailable":
      return new AppError(503, error.code, `The clinic data service could not be reached, so ${what} was not saved. Your text is kept: try again.`, trace);
    case "upstream_timeout":
      // The request was sent and the service may still carry it out: "not saved" would invite a duplicate (a second task).
      return new AppError(503, error.code, `The EHR did not answer in time, so Tandem cannot tell whether ${what} was saved. Your text is kept: check the EHR before trying again.`, trace);
    default:
      // The service answers 502 on a failed task push without naming a code (seed 001 "Errors").
      if (error.upstreamStatus === 502) return new AppError(502, "unexpected_integration_error", `The EHR did not take ${what}: nothing was saved there. Your text is kept: try again.`, trace);
      return error;
  }
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
    let saved: Note;
    try {
      saved = await clinic.request("PATCH /v1/notes/{noteId}", { organizationId: session.organizationId, params: { noteId }, body: change.upstreamBody });
    } catch (error) {
      // The EHR knew it was signed before the service's mirror did.
      if (error instanceof UpstreamError && error.code === "conflict") {
        await learnSigned(session.organizationId, noteId, "write_conflict");
        throw noteConflict(signedConflict(before));
      }
      throw writeFailure(error, "the change");
    }
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
    const session = c.get("session");
    // Kept even for a signed note: text typed before the signature reached Tandem is the user's to copy (never to save).
    const draft: NoteDraft = { organizationId: session.organizationId, userId: session.userId, noteId, fields: body.fields, baseline: body.baseline, noteVersion: body.noteVersion, updatedAt: now() };
    await store.noteDrafts.put(draft);
    await audit.changed(c, "write", "note_draft", noteId);
    return c.json({ draft: draftBody(draft) });
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
    const created = await store.tasks.listByNote(session.organizationId, noteId);
    await audit.read(c, "task", noteId);
    return c.json({ tasks: created.map((entry) => z.parse(taskSchema, entry.task)), source: "tandem" as const });
  });

  api.post("/notes/:id/tasks", async (c) => {
    const { noteId } = await noteInContext(c);
    requireGrantedScope(c, WRITE_SCOPE);
    const request = await parseJsonBody(c, taskCreateRequest);
    const session = c.get("session");
    const actingProviderId = session.providerId;
    if (actingProviderId === null) throw new AppError(403, APP_ERROR_CODES.roleForbidden, "Your sign-in does not name you as a provider in this organization, so you cannot create tasks");
    if (await knownSigned(session.organizationId, noteId)) throw signedNoteRefusal("tasks can no longer be created on it from Tandem");
    let created;
    try {
      // The acting provider is the token's, whatever the body says (DESIGN.md "The host bridge" 3).
      created = await clinic.request("POST /v2/tasks", {
        organizationId: session.organizationId,
        body: { noteId, providerId: actingProviderId, notes: request.notes, assigneeIds: request.assigneeIds },
      });
    } catch (error) {
      if (error instanceof UpstreamError && error.code === "conflict") {
        await learnSigned(session.organizationId, noteId, "write_conflict");
        throw signedNoteRefusal("tasks can no longer be created on it from Tandem");
      }
      throw writeFailure(error, "the task");
    }
    try {
      await store.tasks.insert({ organizationId: session.organizationId, noteId, taskId: created.id, createdBy: session.userId, task: created, createdAt: now() });
    } catch (error) {
      // Created in the EHR: "try again" would create it twice.
      if (error instanceof StoreUnavailableError) throw storeUnavailable("The task was created in the EHR, but Tandem's server could not keep its record, so Tandem's list of tasks may not show it. Do not create it again.");
      throw error;
    }
    await audit.changed(c, "write", "task", created.id);
    announce(session.organizationId, noteId);
    return c.json({ task: created });
  });

  api.get("/notes/:id/images", async (c) => {
    const { noteId } = await noteInContext(c);
    const { images } = await clinic.request("GET /v3/notes/{noteId}/images", { organizationId: c.get("session").organizationId, params: { noteId } });
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
    let image;
    try {
      image = await clinic.request("DELETE /v3/notes/{noteId}/images/{imageId}", { organizationId: session.organizationId, params: { noteId, imageId } });
    } catch (error) {
      if (error instanceof UpstreamError && error.code === "conflict") {
        await learnSigned(session.organizationId, noteId, "write_conflict");
        throw imagesRefusal();
      }
      if (error instanceof UpstreamError && error.code === "not_found") throw new AppError(404, "not_found", "That image is no longer on this note");
      throw writeFailure(error, "the deletion");
    }
    await audit.changed(c, "delete", "note_image", image.id);
    announce(session.organizationId, noteId);
    return c.json({ image });
  });
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
