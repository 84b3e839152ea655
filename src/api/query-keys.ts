import type { QueryClient } from "@tanstack/react-query";
import type { AvailabilityQuery } from "#contract/app-api/availability.ts";
import type { AvailabilityLoadQuery } from "#contract/app-api/availability-load.ts";
import type { SlotSearchQuery } from "#contract/app-api/slots.ts";
import { currentCacheIdentity, identityRoot, type CacheIdentity } from "./cache-identity.ts";

// Every query key of the SPA, built here and nowhere else: the `queryOptions`
// factories (src/api/*-quer*.ts, standalone-queries.ts) take their keys from
// these, and whatever reads, writes or invalidates the cache names a key or a
// prefix from here, never a literal array. Keys go from general to specific,
// so a prefix invalidates a family (`slots.all`: every search; `note.all`:
// every note's fields).
//
// Two roots. `organization` holds everything read from the BFF's /api, as
// the organization and user signed in (ADR 0025): the key starts with both
// (`["organization", organizationId, userId, ...]`), taken from the identity
// the cache holds now (cache-identity.ts), so callers never name them, and a
// change of identity removes the previous one's entries. When events may have
// been missed, or the token's claims change, all of the current identity's
// data is read again, and only it. `standalone` holds the standalone
// sign-in's state (ADR 0010), read from /auth before any organization is
// chosen: it belongs to the browser, not to an identity.

const STANDALONE = ["standalone"] as const;

/** The keys of one identity's data. */
export function queryKeysOf(identity: CacheIdentity | null) {
  const root = identityRoot(identity);
  return {
    organization: {
      /** The prefix of every read of the identity's data. */
      all: root,
    },
    session: () => [...root, "session"] as const,
    directory: {
      all: [...root, "directory"] as const,
      /** One picker's list; `directory.changed` events name it. */
      resource: (resource: "providers" | "facilities" | "appointment-types") => [...root, "directory", resource] as const,
    },
    slots: {
      all: [...root, "slots"] as const,
      searches: [...root, "slots", "search"] as const,
      search: (filters: SlotSearchQuery) => [...root, "slots", "search", filters] as const,
    },
    holds: () => [...root, "holds"] as const,
    availability: {
      all: [...root, "availability"] as const,
      window: (query: AvailabilityQuery) => [...root, "availability", "window", query] as const,
      load: (query: AvailabilityLoadQuery) => [...root, "availability", "load", query] as const,
    },
    note: {
      /** The note's own fields (GET /api/notes/:id). */
      one: (noteId: string) => [...root, "note", noteId] as const,
      draft: (noteId: string) => [...root, "note-draft", noteId] as const,
      tasks: (noteId: string) => [...root, "note-tasks", noteId] as const,
      images: (noteId: string) => [...root, "note-images", noteId] as const,
      changes: (noteId: string) => [...root, "note-changes", noteId] as const,
    },
    recentNotes: () => [...root, "recent-notes"] as const,
    /** The user's last slot search, kept by the BFF (not under `slots`: a live event changes no one's search). */
    lastSlotSearch: () => [...root, "last-slot-search"] as const,
    patient: (patientId: string) => [...root, "patient", patientId] as const,
    patientAppointments: {
      all: [...root, "patient-appointments"] as const,
      of: (patientId: string | null) => [...root, "patient-appointments", patientId] as const,
    },
    /** The organization's waitlist (GET /api/waitlist): its waiting entries and open offers; `waitlist.*` events invalidate it. */
    waitlist: {
      all: [...root, "waitlist"] as const,
      list: () => [...root, "waitlist", "list"] as const,
    },
  };
}

type IdentityKeys = ReturnType<typeof queryKeysOf>;

let built: { identity: CacheIdentity | null; keys: IdentityKeys } = { identity: null, keys: queryKeysOf(null) };

function currentKeys(): IdentityKeys {
  const identity = currentCacheIdentity();
  if (built.identity !== identity) built = { identity, keys: queryKeysOf(identity) };
  return built.keys;
}

/** The keys of the current identity's data (and the standalone sign-in's), each read when it is used. */
export const queryKeys = {
  get organization() {
    return currentKeys().organization;
  },
  get session() {
    return currentKeys().session;
  },
  get directory() {
    return currentKeys().directory;
  },
  get slots() {
    return currentKeys().slots;
  },
  get holds() {
    return currentKeys().holds;
  },
  get availability() {
    return currentKeys().availability;
  },
  get note() {
    return currentKeys().note;
  },
  get recentNotes() {
    return currentKeys().recentNotes;
  },
  get lastSlotSearch() {
    return currentKeys().lastSlotSearch;
  },
  get patient() {
    return currentKeys().patient;
  },
  get patientAppointments() {
    return currentKeys().patientAppointments;
  },
  get waitlist() {
    return currentKeys().waitlist;
  },
  standalone: {
    all: STANDALONE,
    signIn: () => [...STANDALONE, "sign-in"] as const,
  },
};

/**
 * Reads everything again: the current identity's data and, outside the EHR,
 * the sign-in state. For when what the page shows may be out of date as a
 * whole: a live-event stream that reconnects (events may have been missed in
 * between).
 */
export async function invalidateEveryRead(queryClient: QueryClient): Promise<void> {
  await Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.organization.all }), queryClient.invalidateQueries({ queryKey: queryKeys.standalone.all })]);
}
