import type { QueryClient } from "@tanstack/react-query";
import type { AvailabilityQuery } from "#contract/app-api/availability.ts";
import type { AvailabilityLoadQuery } from "#contract/app-api/availability-load.ts";
import type { SlotSearchQuery } from "#contract/app-api/slots.ts";

// Every query key of the SPA, built here and nowhere else: the `queryOptions`
// factories (src/api/*-quer*.ts, standalone-queries.ts) take their keys from
// these, and whatever reads, writes or invalidates the cache names a key or a
// prefix from here, never a literal array. Keys go from general to specific,
// so a prefix invalidates a family (`slots.all`: every search; `note.all`:
// every note's fields).
//
// Two roots. `organization` holds everything read from the BFF's /api for
// the organization the user works in (DESIGN.md "The BFF's API"): when
// events may have been missed, or the token's claims change, all of it is
// read again, and only it. `standalone` holds the standalone sign-in's state
// (ADR 0010), read from /auth before any organization is chosen.

const ORGANIZATION = ["organization"] as const;
const STANDALONE = ["standalone"] as const;

export const queryKeys = {
  organization: {
    /** The prefix of every read of the organization's data. */
    all: ORGANIZATION,
  },
  session: () => [...ORGANIZATION, "session"] as const,
  directory: {
    all: [...ORGANIZATION, "directory"] as const,
    /** One picker's list; `directory.changed` events name it. */
    resource: (resource: "providers" | "facilities" | "appointment-types") => [...ORGANIZATION, "directory", resource] as const,
  },
  slots: {
    all: [...ORGANIZATION, "slots"] as const,
    searches: [...ORGANIZATION, "slots", "search"] as const,
    search: (filters: SlotSearchQuery) => [...ORGANIZATION, "slots", "search", filters] as const,
  },
  holds: () => [...ORGANIZATION, "holds"] as const,
  availability: {
    all: [...ORGANIZATION, "availability"] as const,
    window: (query: AvailabilityQuery) => [...ORGANIZATION, "availability", "window", query] as const,
    load: (query: AvailabilityLoadQuery) => [...ORGANIZATION, "availability", "load", query] as const,
  },
  note: {
    /** The note's own fields (GET /api/notes/:id). */
    one: (noteId: string) => [...ORGANIZATION, "note", noteId] as const,
    draft: (noteId: string) => [...ORGANIZATION, "note-draft", noteId] as const,
    tasks: (noteId: string) => [...ORGANIZATION, "note-tasks", noteId] as const,
    images: (noteId: string) => [...ORGANIZATION, "note-images", noteId] as const,
    changes: (noteId: string) => [...ORGANIZATION, "note-changes", noteId] as const,
  },
  recentNotes: () => [...ORGANIZATION, "recent-notes"] as const,
  patient: (patientId: string) => [...ORGANIZATION, "patient", patientId] as const,
  patientAppointments: {
    all: [...ORGANIZATION, "patient-appointments"] as const,
    of: (patientId: string | null) => [...ORGANIZATION, "patient-appointments", patientId] as const,
  },
  standalone: {
    all: STANDALONE,
    signIn: () => [...STANDALONE, "sign-in"] as const,
  },
};

/**
 * Reads everything again: the organization's data and, outside the EHR, the
 * sign-in state. For when what the page shows may be out of date as a whole:
 * a live-event stream that reconnects (events may have been missed in
 * between) and another organization chosen outside the EHR (ADR 0010).
 */
export async function invalidateEveryRead(queryClient: QueryClient): Promise<void> {
  await Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.organization.all }), queryClient.invalidateQueries({ queryKey: queryKeys.standalone.all })]);
}
