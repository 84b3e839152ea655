import { ENDED_RETENTION_MS } from "../auth/standalone/session-registry.ts";
import type { RetentionConfig } from "../env.ts";
import { VIEW_RETENTION_MS } from "../routes/note-changes-routes.ts";
import type { Store } from "../store/store.ts";

// What Tandem keeps, and for how long (docs/security.md, whose table says
// why each period is what it is): one rule per kind of row, each a bounded
// purge of what is past its period at `now`. Installations are kept: one row
// per organization, no patient data, and the row is what refuses an
// uninstalled organization's tokens.

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Seed 001 "Delivery guarantees" 1: retries for roughly 24 hours; three times that, and a hook-id dedupes nothing more. */
export const PROCESSED_WEBHOOK_RETENTION_MS = 72 * HOUR_MS;
/** Past the retry window no stale event can arrive; an appointment's own day a week gone, no reschedule needs its old day. */
export const APPOINTMENT_STATE_RETENTION_MS = 7 * DAY_MS;
/** A draft of a signed note can only be copied: a week (a weekend included) to come back and copy it. */
export const SIGNED_NOTE_DRAFT_RETENTION_MS = 7 * DAY_MS;
/** Far beyond any lag of the service's mirror behind the EHR (it syncs every minute or so). */
export const NOTE_STATE_RETENTION_MS = 90 * DAY_MS;
/** The only list of a note's tasks (the service has no task read), for the sign-off panel while the note is worked on, delinquent notes included. */
export const CREATED_TASK_RETENTION_MS = 365 * DAY_MS;
/** A last slot search opens the slot finder on the user's next working day; a month covers leave and rotas, and a search that old is not the one they want. */
export const LAST_SLOT_SEARCH_RETENTION_MS = 30 * DAY_MS;
/** A write's record (its text): past the service's 24 h Idempotency-Key window, and time to come back to a task the EHR never confirmed. */
export const WRITE_INTENT_RETENTION_MS = 14 * DAY_MS;

/** An ended waitlist entry (PHI: the patient, the note): a month to answer "why is she no longer on the list", then gone. */
export const ENDED_WAITLIST_ENTRY_RETENTION_MS = 30 * DAY_MS;
/** A freed slot and its offer (PHI: the names it was offered to): a week after the slot's start, past any question about who was called. */
export const WAITLIST_OFFER_RETENTION_MS = 7 * DAY_MS;

/** The label of a rule in logs and metrics: the table it purges (the inbox's dead letters apart). */
export type RetentionTable =
  | "webhook_inbox"
  | "webhook_dead_letters"
  | "appointment_states"
  | "used_token_ids"
  | "slot_holds"
  | "standalone_sessions"
  | "note_views"
  | "last_slot_searches"
  | "note_drafts"
  | "note_states"
  | "created_tasks"
  | "write_intents"
  | "waitlist_entries"
  | "waitlist_offers"
  | "audit_trail";

export interface RetentionRule {
  table: RetentionTable;
  /** Deletes at most `limit` rows past their period at `now`; answers how many. */
  purge(now: number, limit: number): Promise<number>;
}

export type RetentionStore = Pick<Store, "inbox" | "appointmentStates" | "usedTokenIds" | "holds" | "standaloneSessions" | "noteViews" | "lastSlotSearches" | "noteDrafts" | "noteStates" | "tasks" | "writeIntents" | "waitlist" | "audit">;

export function retentionRules(store: RetentionStore, config: RetentionConfig): RetentionRule[] {
  const draftMs = config.noteDraftDays * DAY_MS;
  return [
    { table: "webhook_inbox", purge: (now, limit) => store.inbox.purgeProcessedBefore(now - PROCESSED_WEBHOOK_RETENTION_MS, limit) },
    { table: "webhook_dead_letters", purge: (now, limit) => store.inbox.purgeDeadLettersBefore(now - config.deadLetterDays * DAY_MS, limit) },
    { table: "appointment_states", purge: (now, limit) => store.appointmentStates.purgeEndedBefore(now - APPOINTMENT_STATE_RETENTION_MS, limit) },
    // `expiresAt` already carries the verifier's clock skew: a token id is kept while its token can be accepted.
    { table: "used_token_ids", purge: (now, limit) => store.usedTokenIds.purgeExpired(now, limit) },
    { table: "slot_holds", purge: (now, limit) => store.holds.purgeExpired(now, limit) },
    { table: "standalone_sessions", purge: (now, limit) => store.standaloneSessions.purgeEndedBefore(now - ENDED_RETENTION_MS, limit) },
    { table: "note_views", purge: (now, limit) => store.noteViews.purgeSeenBefore(now - VIEW_RETENTION_MS, limit) },
    { table: "last_slot_searches", purge: (now, limit) => store.lastSlotSearches.purgeSavedBefore(now - LAST_SLOT_SEARCH_RETENTION_MS, limit) },
    {
      table: "note_drafts",
      async purge(now, limit) {
        const ofSigned = await store.noteDrafts.purgeOfSignedNotesBefore(now - Math.min(SIGNED_NOTE_DRAFT_RETENTION_MS, draftMs), limit);
        return ofSigned >= limit ? ofSigned : ofSigned + (await store.noteDrafts.purgeUntouchedBefore(now - draftMs, limit - ofSigned));
      },
    },
    { table: "note_states", purge: (now, limit) => store.noteStates.purgeLearnedBefore(now - NOTE_STATE_RETENTION_MS, limit) },
    { table: "created_tasks", purge: (now, limit) => store.tasks.purgeCreatedBefore(now - CREATED_TASK_RETENTION_MS, limit) },
    { table: "write_intents", purge: (now, limit) => store.writeIntents.purgeCreatedBefore(now - WRITE_INTENT_RETENTION_MS, limit) },
    // Waiting entries are ended by their range (server/waitlist/waitlist-matcher.ts), then purged here like any ended one.
    { table: "waitlist_entries", purge: (now, limit) => store.waitlist.purgeEndedBefore(now - ENDED_WAITLIST_ENTRY_RETENTION_MS, limit) },
    { table: "waitlist_offers", purge: (now, limit) => store.waitlist.purgeOffersBefore(now - WAITLIST_OFFER_RETENTION_MS, limit) },
    { table: "audit_trail", purge: (now, limit) => store.audit.purgeBefore(now - config.auditTrailDays * DAY_MS, limit) },
  ];
}
