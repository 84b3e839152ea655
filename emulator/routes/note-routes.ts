import * as z from "zod/mini";
import { note as noteSchema, noteImage, notePatchBody, task as taskSchema, taskCreateBody, SIGNED_NOTE_STATUS, type Note } from "#contract/clinic-api/note.ts";
import { taskProvider } from "#contract/clinic-api/people.ts";
import { parseV3PathId } from "#contract/ids.ts";
import { ServiceError, badRequest, notFound } from "../http/service-error.ts";
import { ok, requireScope } from "../http/service-middleware.ts";
import { parseJsonBody } from "../http/validate.ts";
import type { OrgState } from "../service/service-state.ts";
import type { EhrNote } from "../world/types.ts";
import type { RouteDeps, ServiceApp } from "./route-deps.ts";
import { parseV1Id } from "./path-ids.ts";

// Seed 001 "Notes" and "Tasks", with DESIGN.md's assumed GET of a note and
// of its images. Writes are pushed to the EHR synchronously: the EHR copy is
// changed first, then the mirror; a signed note answers `conflict`.

/** Text field lengths are not shown by the seeds; this bound is assumed. */
const MAX_NOTE_FIELD_LENGTH = 100_000;
/** The avatar is a time-limited URL (seed 000 "Patient"). */
const AVATAR_LIFETIME_SECONDS = 900;

/** Database-style text timestamp of notes and tasks: `YYYY-MM-DD HH:MM:SS.ffffff+00`. */
export const textTimestampAt = (ms: number) => `${new Date(ms).toISOString().replace("T", " ").slice(0, 23)}000+00`;

function findNote(org: OrgState, noteId: string): { ehr: EhrNote; mirrored: EhrNote } {
  const ehr = org.ehr.notes.find((candidate) => candidate.id === noteId);
  const mirrored = org.mirror.notes.get(noteId);
  if (!ehr || !mirrored) throw notFound(`Note ${noteId} not found`);
  return { ehr, mirrored };
}

function assertNotSigned(note: EhrNote): void {
  if (note.status === SIGNED_NOTE_STATUS) throw ServiceError.of("conflict", "The note is signed and cannot be edited");
}

export function registerNoteRoutes(app: ServiceApp, { state, clock }: RouteDeps): void {
  const renderNote = (note: EhrNote): Note => {
    const expires = Math.floor(clock.now() / 1000) + AVATAR_LIFETIME_SECONDS;
    return z.parse(noteSchema, { ...note, patient: { ...note.patient, avatar: `${note.patient.avatar}?expires=${expires}` } });
  };

  app.get("/v1/notes/:noteId", (c) => {
    const noteId = parseV1Id(c.req.param("noteId"), "noteId");
    return ok(c, renderNote(findNote(c.get("org"), noteId).mirrored));
  });

  app.patch("/v1/notes/:noteId", async (c) => {
    requireScope(c, state, "write:soap_notes");
    const noteId = parseV1Id(c.req.param("noteId"), "noteId");
    const body = await parseJsonBody(c, notePatchBody);
    for (const [field, value] of Object.entries(body)) {
      if (typeof value === "string" && value.length > MAX_NOTE_FIELD_LENGTH) throw badRequest(`${field}: must be at most ${MAX_NOTE_FIELD_LENGTH} characters`);
    }
    const org = c.get("org");
    const { ehr } = findNote(org, noteId);
    assertNotSigned(ehr);
    // Only the fields provided are changed.
    if (body.additionalHpiComments !== undefined) ehr.soapNote.hpi.additionalHpiComments = body.additionalHpiComments;
    if (body.impressionsPlansComments !== undefined) ehr.soapNote.impressionsPlansComments = body.impressionsPlansComments;
    if (body.otherExamComments !== undefined) ehr.soapNote.exam.otherExamComments = body.otherExamComments;
    if (body.stickyNoteDescription !== undefined) ehr.soapNote.stickyNote.description = body.stickyNoteDescription;
    // An empty PATCH changes nothing, so it is no new version either.
    if (Object.keys(body).length > 0) {
      ehr.version += 1;
      ehr.updatedAt = textTimestampAt(clock.now());
    }
    org.mirror.notes.set(ehr.id, structuredClone(ehr));
    return ok(c, renderNote(ehr));
  });

  app.get("/v3/notes/:noteId/images", (c) => {
    const noteId = parseV1Id(c.req.param("noteId"), "noteId");
    const { mirrored } = findNote(c.get("org"), noteId);
    return ok(c, { images: mirrored.images.map((image) => z.parse(noteImage, image)) });
  });

  app.delete("/v3/notes/:noteId/images/:imageId", (c) => {
    requireScope(c, state, "write:soap_notes");
    const noteId = parseV1Id(c.req.param("noteId"), "noteId");
    const imageId = parseV3PathId(c.req.param("imageId"), "img");
    if (!imageId) throw badRequest("imageId must be a valid id (an img_ id or a UUID)");
    const org = c.get("org");
    const { ehr } = findNote(org, noteId);
    const image = ehr.images.find((candidate) => parseV3PathId(candidate.id, "img") === imageId);
    if (!image) throw notFound(`Image ${c.req.param("imageId")} not found on note ${noteId}`);
    assertNotSigned(ehr);
    // Deleted in the EHR, archived locally: it leaves the note's image list.
    ehr.images = ehr.images.filter((candidate) => candidate !== image);
    org.mirror.notes.set(ehr.id, structuredClone(ehr));
    return ok(c, { ...z.parse(noteImage, image), status: "archived" });
  });

  app.post("/v2/tasks", async (c) => {
    requireScope(c, state, "write:soap_notes");
    const body = await parseJsonBody(c, taskCreateBody);
    const org = c.get("org");
    const noteId = parseV1Id(body.noteId, "noteId");
    const { ehr } = findNote(org, noteId);
    const providerById = (id: string, field: string) => {
      const raw = parseV3PathId(id, "prv");
      const provider = raw ? org.ehr.providers.find((candidate) => candidate.id === raw) : undefined;
      if (!provider) throw badRequest(`${field}: ${id} is not a provider of this organization`);
      return provider;
    };
    providerById(body.providerId, "providerId");
    const assignees = body.assigneeIds.map((id, index) => providerById(id, `assigneeIds.${index}`));
    const stamp = textTimestampAt(clock.now());
    const created = z.parse(taskSchema, {
      id: state.newId(),
      status: "not_started",
      syncStatus: "synced",
      notes: body.notes,
      source: "marketplace_app",
      ehrType: ehr.ehrType,
      assignedProviders: assignees.map((provider) => z.parse(taskProvider, provider)),
      createdAt: stamp,
      ehrCreatedAt: stamp,
      updatedAt: stamp,
      noteId: ehr.id,
    });
    org.tasks.push(created);
    return ok(c, created);
  });
}
