import * as z from "zod/mini";
import { rawUuid } from "#contract/clinic-api/primitives.ts";

// `/note?noteId=<id>`: how a note is opened outside the EHR (a link from the
// recent-notes list, a bookmark, a colleague). The router hands the search
// value over as it parsed it (`?noteId=123` arrives as a number), so anything
// but a note id (a UUID) is a link that names no note, said plainly.

export type NoteLink = { kind: "none" } | { kind: "note"; noteId: string } | { kind: "malformed" };

/** What the router keeps of `?noteId=`: the text as given, checked when the view reads it. */
export function noteIdSearchValue(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === "string" ? value : JSON.stringify(value);
}

export function readNoteLink(noteId: string | undefined): NoteLink {
  if (noteId === undefined) return { kind: "none" };
  const parsed = z.safeParse(rawUuid, noteId.trim());
  return parsed.success ? { kind: "note", noteId: parsed.data.toLowerCase() } : { kind: "malformed" };
}
