import type { RecentNote } from "#contract/app-api/recent-notes.ts";
import type { Note } from "#contract/clinic-api/note.ts";
import { isRawUuid } from "#contract/ids.ts";
import { UpstreamError } from "../clinic/upstream-error.ts";
import type { RecentResource } from "../store/store.ts";

// The recent-notes list (GET /api/notes/recent): the user's latest notes from
// the audit trail, each read afresh from the service a few at a time. A note
// the service no longer has (404) or refuses (403) is left out; any other
// failure is the service failing as a whole and fails the list.

/** Reads in flight at once: every organization shares the service's rate limit (seed 001 "Limits"). */
export const RECENT_NOTE_READS_AT_ONCE = 4;

/** Runs `task` over `items`, at most `limit` at a time, in order of the items; after a failure nothing new starts. */
export async function mapAtMost<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next;
      next += 1;
      try {
        results[index] = await task(items[index] as T);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return results;
}

/** The note, or null when the service no longer has it or refuses it. */
export async function readIfAvailable(noteId: string, read: (noteId: string) => Promise<Note>): Promise<Note | null> {
  // The audit trail holds what the note routes recorded (raw UUIDs), but an id the service could never take is not worth a call.
  if (!isRawUuid(noteId)) return null;
  try {
    return await read(noteId);
  } catch (error) {
    if (error instanceof UpstreamError && (error.upstreamStatus === 404 || error.upstreamStatus === 403)) return null;
    throw error;
  }
}

/** `2026-11-20 16:20:00.000000+00` → `2026-11-20T16:20:00.000Z`, or null when it names no instant. */
export function isoFromTextTimestamp(text: string): string | null {
  const iso = `${text.slice(0, 10)}T${text.slice(11, 23)}Z`;
  const epochMs = Date.parse(iso);
  return Number.isNaN(epochMs) || new Date(epochMs).toISOString() !== iso ? null : iso;
}

/** One row of the list; null when the note's visit date names no instant (the list would have to guess). */
export function toRecentNote(note: Note, recent: RecentResource): RecentNote | null {
  const visitAt = isoFromTextTimestamp(note.visitDate);
  if (visitAt === null) return null;
  return {
    noteId: note.id,
    patient: { firstName: note.patient.firstName, middleName: note.patient.middleName ?? null, lastName: note.patient.lastName },
    visitAt,
    facility: { id: note.facility.id, name: note.facility.name, timezone: note.facility.timezone },
    status: note.status,
    lastOpenedAt: new Date(recent.lastAt).toISOString(),
    edited: recent.changed,
  };
}
