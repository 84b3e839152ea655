import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

// Tables are unqualified on purpose: the schema they live in comes from the
// connection's search_path, so tests can give each worker its own schema.
// Every instant is `timestamp with time zone` (mode "date"); repositories
// convert to and from the interface's epoch milliseconds and ISO strings.

const instant = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const installations = pgTable("installations", {
  organizationId: text("organization_id").primaryKey(),
  status: text("status").notNull(),
  grantedPermissions: jsonb("granted_permissions").notNull(),
  settings: jsonb("settings").notNull(),
  installedAt: instant("installed_at"),
  updatedAt: instant("updated_at").notNull(),
});

export const webhookInbox = pgTable(
  "webhook_inbox",
  {
    hookId: text("hook_id").primaryKey(),
    eventType: text("event_type").notNull(),
    payload: jsonb("payload").notNull(),
    receivedAt: instant("received_at").notNull(),
    processedAt: instant("processed_at"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    // A processor's lease on the row: another BFF process skips it until then, and takes it over after (a crash).
    claimedUntil: instant("claimed_until"),
    // A verified delivery the BFF cannot read (not JSON, not an envelope, a payload it cannot parse) or failed to process on every attempt: kept with the reason, never taken again, counted in /healthz.
    deadLetterReason: text("dead_letter_reason"),
  },
  (table) => [
    // Partial: the processor only ever scans what is still to do.
    index("webhook_inbox_unprocessed_idx").on(table.receivedAt, table.hookId).where(sql`${table.processedAt} is null`),
    // The retention purge (docs/security.md "What Tandem keeps"): processed entries and dead letters by when they were settled.
    index("webhook_inbox_processed_at_idx").on(table.processedAt).where(sql`${table.processedAt} is not null`),
  ],
);

export const appointmentStates = pgTable(
  "appointment_states",
  {
    organizationId: text("organization_id").notNull(),
    appointmentId: text("appointment_id").notNull(),
    status: text("status").notNull(),
    updatedAt: instant("updated_at").notNull(),
    facilityId: text("facility_id").notNull(),
    // Kept as the payload's text: only passed on (invalidation by date), never compared here.
    scheduledStartDate: text("scheduled_start_date").notNull(),
    scheduledEndDate: text("scheduled_end_date").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.organizationId, table.appointmentId] }),
    // The retention purge: appointments whose day is long past (the text's first ten characters are its date).
    index("appointment_states_scheduled_end_idx").on(table.scheduledEndDate),
  ],
);

export const usedTokenIds = pgTable(
  "used_token_ids",
  {
    jti: text("jti").primaryKey(),
    expiresAt: instant("expires_at").notNull(),
  },
  (table) => [index("used_token_ids_expires_at_idx").on(table.expiresAt)],
);

export const noteDrafts = pgTable(
  "note_drafts",
  {
    organizationId: text("organization_id").notNull(),
    userId: text("user_id").notNull(),
    noteId: text("note_id").notNull(),
    fields: jsonb("fields").notNull(),
    baseline: jsonb("baseline").notNull(),
    noteVersion: integer("note_version"),
    updatedAt: instant("updated_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.userId, table.noteId] }), index("note_drafts_updated_at_idx").on(table.updatedAt)],
);

export const createdTasks = pgTable(
  "created_tasks",
  {
    organizationId: text("organization_id").notNull(),
    noteId: text("note_id").notNull(),
    taskId: text("task_id").notNull(),
    createdBy: text("created_by").notNull(),
    task: jsonb("task").notNull(),
    createdAt: instant("created_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.organizationId, table.taskId] }),
    index("created_tasks_note_idx").on(table.organizationId, table.noteId, table.createdAt),
    index("created_tasks_created_at_idx").on(table.createdAt),
  ],
);

export const auditTrail = pgTable(
  "audit_trail",
  {
    // A surrogate key: entries have no natural one, and it orders entries written in the same millisecond.
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    at: instant("at").notNull(),
    organizationId: text("organization_id").notNull(),
    // The person (ADR 0024: their person key, the same inside and outside the EHR); in entries written
    // before person keys (account_id null), the account's `sub`.
    userId: text("user_id").notNull(),
    // The account that acted: the host token's or the standalone sign-in's `sub`. Null before ADR 0024.
    accountId: text("account_id"),
    action: text("action").notNull(),
    resourceType: text("resource_type").notNull(),
    resourceId: text("resource_id").notNull(),
    traceId: text("trace_id").notNull(),
  },
  (table) => [
    index("audit_trail_organization_at_idx").on(table.organizationId, table.at),
    // A user's own trail, newest first: their recent notes.
    index("audit_trail_user_at_idx").on(table.organizationId, table.userId, table.at),
    // The retention purge: entries past AUDIT_RETENTION_DAYS, in every organization.
    index("audit_trail_at_idx").on(table.at),
  ],
);

// What the service has said about a note's state, kept because its mirror
// lags the EHR: once a write was refused as signed, or a read said signed,
// the note stays signed here whatever a later lagging read says. Signing is
// one-way (seed 000 "States"), so a row is never turned back; it is purged
// 90 days on, long after the mirror has caught up (docs/security.md).
export const noteStates = pgTable(
  "note_states",
  {
    organizationId: text("organization_id").notNull(),
    noteId: text("note_id").notNull(),
    status: text("status").notNull(),
    // How Tandem learned it: `write_conflict` (a 409 on a write) or `read`.
    source: text("source").notNull(),
    learnedAt: instant("learned_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.noteId] }), index("note_states_learned_at_idx").on(table.learnedAt)],
);

// The writable fields and each section's digest as this user last saw the
// note, for "what changed since you last looked". Field text is the same
// PHI the draft store keeps; sections are digests only.
export const noteViews = pgTable(
  "note_views",
  {
    organizationId: text("organization_id").notNull(),
    userId: text("user_id").notNull(),
    noteId: text("note_id").notNull(),
    fields: jsonb("fields").notNull(),
    sectionDigests: jsonb("section_digests").notNull(),
    noteUpdatedAt: text("note_updated_at"),
    seenAt: instant("seen_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.userId, table.noteId] }), index("note_views_seen_at_idx").on(table.seenAt)],
);

// Each user's last slot search in an organization (issue 36 item 8), so a
// reload of the whole EHR page opens the slot finder on it: the filters as the
// SPA's URL carries them (ids, dates, filter values), never patient data.
export const lastSlotSearches = pgTable(
  "last_slot_searches",
  {
    organizationId: text("organization_id").notNull(),
    userId: text("user_id").notNull(),
    search: jsonb("search").notNull(),
    savedAt: instant("saved_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.userId] }), index("last_slot_searches_saved_at_idx").on(table.savedAt)],
);

export const slotHolds = pgTable(
  "slot_holds",
  {
    organizationId: text("organization_id").notNull(),
    holdId: text("hold_id").notNull(),
    userId: text("user_id").notNull(),
    patientId: text("patient_id"),
    // PHI: "Alvarez, Maria", as the EHR named the patient when the hold was made (read:patients granted), so a hold
    // kept for a patient no longer open names them (issue 36 item 4). Gone with the hold's row.
    patientName: text("patient_name"),
    providerId: text("provider_id").notNull(),
    facilityId: text("facility_id").notNull(),
    // The service's text with the facility's offset: shown and sent back as given, never compared here.
    startsAt: text("starts_at").notNull(),
    endsAt: text("ends_at").notNull(),
    appointmentTypeId: text("appointment_type_id").notNull(),
    slotLengthMinutes: integer("slot_length_minutes").notNull(),
    isNewPatient: boolean("is_new_patient").notNull(),
    expiresAt: instant("expires_at").notNull(),
    heldAt: instant("held_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.organizationId, table.holdId] }),
    index("slot_holds_user_idx").on(table.organizationId, table.userId, table.expiresAt),
    index("slot_holds_expires_at_idx").on(table.expiresAt),
  ],
);

// Standalone sign-in sessions (ADR 0010 "sessions live on the server"): the browser's cookie holds a
// random secret; only its SHA-256 is kept here, so a copy of the table signs
// no one in. A row ends at `expires_at` or when revoked (sign-out, the user's
// own list, or the service saying the account can no longer sign in).
export const standaloneSessions = pgTable(
  "standalone_sessions",
  {
    secretHash: text("secret_hash").primaryKey(),
    // What the user's session list shows and revokes by: not a credential.
    sessionId: text("session_id").notNull().unique(),
    userId: text("user_id").notNull(),
    profile: jsonb("profile").notNull(),
    selectedOrganizationId: text("selected_organization_id"),
    // The service's access token for re-checking the user, sealed with SESSION_SECRET.
    sealedAccessToken: text("sealed_access_token"),
    userAgent: text("user_agent"),
    createdAt: instant("created_at").notNull(),
    expiresAt: instant("expires_at").notNull(),
    verifiedAt: instant("verified_at").notNull(),
    revokedAt: instant("revoked_at"),
  },
  (table) => [
    index("standalone_sessions_user_idx").on(table.userId, table.expiresAt),
    index("standalone_sessions_expires_at_idx").on(table.expiresAt),
    index("standalone_sessions_revoked_at_idx").on(table.revokedAt).where(sql`${table.revokedAt} is not null`),
  ],
);

// Writes sent to the service whose outcome must outlive the request (issue 35
// item 4): recorded before the service is called, settled from its answer.
// `outcome` is `pending` until then; `done`, `refused` (the service answered
// a definite refusal before acting), or `unknown` (it may have acted: a reset,
// a timeout, or the BFF failing after the call). A `pending` row older than a
// request's deadline reads as `unknown`: its process died mid-call. The `id`
// is the BFF's, sent to the service as the write's idempotency key.
export const writeIntents = pgTable(
  "write_intents",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    userId: text("user_id").notNull(),
    // task | hold | note_patch | image_delete
    kind: text("kind").notNull(),
    // The note (task, note_patch, image_delete) or the slot's key (hold) the write is about.
    subjectId: text("subject_id").notNull(),
    request: jsonb("request").notNull(),
    outcome: text("outcome").notNull(),
    // What the service made, once known: the task's or the hold's id.
    resultId: text("result_id"),
    createdAt: instant("created_at").notNull(),
    settledAt: instant("settled_at"),
  },
  (table) => [
    index("write_intents_subject_idx").on(table.organizationId, table.kind, table.subjectId, table.createdAt),
    index("write_intents_user_idx").on(table.organizationId, table.userId, table.kind, table.outcome),
    index("write_intents_created_at_idx").on(table.createdAt),
  ],
);

// The upstream budget every BFF process shares (ADR 0026): one row per
// request sent to the Clinic Data Service, kept a window (60 s) and then
// deleted by the next process to take budget. `sent_at` is the sending
// process's clock in ms; `scope` is `key` or `organization:<id>`
// (RATE_LIMIT_SCOPE). Written and read only by server/upstream-budget/postgres-send-log.ts.
export const upstreamSends = pgTable(
  "upstream_sends",
  {
    scope: text("scope").notNull(),
    organizationId: text("organization_id").notNull(),
    process: text("process").notNull(),
    sentAt: bigint("sent_at", { mode: "number" }).notNull(),
  },
  (table) => [index("upstream_sends_scope_sent_at_idx").on(table.scope, table.sentAt)],
);

// The organization's waitlist (issue 38; ADR 0030). PHI: the patient, the EHR's
// name for them then, and the note ("prefers a call after 4 pm"). An entry
// waits until it ends (`ended_at`, `end_reason`: removed, booked or
// range_passed); an ended one is kept a while for "why is she no longer on the
// list", then purged (docs/security.md "What Tandem keeps").
export const waitlistEntries = pgTable(
  "waitlist_entries",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    // As the token gave it; `patient_key` is its raw UUID in lower case, what events are matched by.
    patientId: text("patient_id").notNull(),
    patientKey: text("patient_key").notNull(),
    patientName: text("patient_name"),
    // contract/app-api/waitlist.ts `waitlistPreferences`, as validated.
    preferences: jsonb("preferences").notNull(),
    // The range's local dates (`YYYY-MM-DD`, compared as text), out of `preferences` for the queries.
    startDate: text("start_date").notNull(),
    endDate: text("end_date").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: instant("created_at").notNull(),
    updatedAt: instant("updated_at").notNull(),
    endedAt: instant("ended_at"),
    endReason: text("end_reason"),
  },
  (table) => [
    index("waitlist_entries_waiting_idx").on(table.organizationId, table.createdAt).where(sql`${table.endedAt} is null`),
    index("waitlist_entries_patient_idx").on(table.organizationId, table.patientKey).where(sql`${table.endedAt} is null`),
    index("waitlist_entries_ended_at_idx").on(table.endedAt).where(sql`${table.endedAt} is not null`),
  ],
);

// One row per freed slot (issue 38; ADR 0030): written when the cancellation's
// event is processed (`matching`), unique per organization and `freed_key`
// (the appointment and its start), so a duplicate or reordered delivery, on
// any process, finds the row already there. A matcher claims `matching` rows
// under a lease (`claimed_until`, also the next retry's time), reads, and
// settles the row `offered` (the offer's columns filled), `unmatched` (nobody
// fits, or the slot is not free), or `abandoned` (every attempt failed, or
// the slot passed first). `taken_*`: the user who held the slot from the offer.
export const waitlistOffers = pgTable(
  "waitlist_offers",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    freedKey: text("freed_key").notNull(),
    appointmentId: text("appointment_id").notNull(),
    facilityId: text("facility_id").notNull(),
    // The cancelled appointment's start: when the offer stops being open, and what the retention purge dates it by.
    slotStartsAt: instant("slot_starts_at").notNull(),
    // When the cancellation's event reached the BFF.
    freedAt: instant("freed_at").notNull(),
    status: text("status").notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    claimedUntil: instant("claimed_until"),
    // The offer, once `offered`: the slot as the service gave it, its kind, and who fits it (PHI: names).
    providerId: text("provider_id"),
    startsAt: text("starts_at"),
    endsAt: text("ends_at"),
    appointmentTypeId: text("appointment_type_id"),
    slotLengthMinutes: integer("slot_length_minutes"),
    isNewPatient: boolean("is_new_patient"),
    matches: jsonb("matches"),
    takenBy: text("taken_by"),
    takenEntryId: text("taken_entry_id"),
    takenAt: instant("taken_at"),
  },
  (table) => [
    uniqueIndex("waitlist_offers_freed_key_idx").on(table.organizationId, table.freedKey),
    index("waitlist_offers_matching_idx").on(table.claimedUntil).where(sql`${table.status} = 'matching'`),
    index("waitlist_offers_open_idx").on(table.organizationId, table.slotStartsAt).where(sql`${table.status} = 'offered'`),
    index("waitlist_offers_slot_starts_at_idx").on(table.slotStartsAt),
  ],
);
