import type { WaitlistEndReason, WaitlistPreferences } from "#contract/app-api/waitlist.ts";
import type { InstallationStatus } from "#contract/clinic-api/installation.ts";

// The BFF's store (DESIGN.md; ADR 0004): one interface, two
// engines (embedded PGlite by default, PostgreSQL with DATABASE_URL), one
// schema and one migration set. Times are epoch milliseconds unless named
// otherwise; organization ids are raw UUIDs.
//
// Every `purge…` method deletes at most `limit` rows (default 500) in one
// statement, skipping rows another process holds, and answers how many: the
// retention job (server/retention/) calls them batch after batch
// (docs/security.md "What Tandem keeps, and for how long").

export interface StoredInstallation {
  organizationId: string;
  status: InstallationStatus;
  /** Optional scopes granted; the manifest's required scopes are not repeated. */
  grantedPermissions: string[];
  settings: Record<string, unknown>;
  installedAt: string | null;
  /** The service's `updatedAt`, or the lifecycle event's timestamp: newer wins. */
  updatedAt: string;
}

export interface InstallationRepository {
  get(organizationId: string): Promise<StoredInstallation | null>;
  list(): Promise<StoredInstallation[]>;
  /** Writes the record unless a stored one has a later `updatedAt`; returns whether it was written. */
  upsertIfNewer(record: StoredInstallation): Promise<boolean>;
}

export interface InboxEntry {
  hookId: string;
  eventType: string;
  /** The verified raw body, parsed. */
  payload: unknown;
  receivedAt: number;
  processedAt: number | null;
  attempts: number;
  lastError: string | null;
  /** Why a verified delivery could not be read or processed; such an entry is never taken again. */
  deadLetterReason: string | null;
}

export interface InboxBacklog {
  unprocessed: number;
  /** `receivedAt` of the oldest unprocessed entry; null when there is none. */
  oldestReceivedAt: number | null;
}

export interface WebhookInboxRepository {
  /** Stores a delivery under its unique `hook-id`; false when that id was already stored (a duplicate). */
  insert(entry: { hookId: string; eventType: string; payload: unknown; receivedAt: number }): Promise<boolean>;
  /** Keeps a verified delivery the BFF cannot read, with the reason, never to be processed; false for a duplicate. */
  insertDeadLetter(entry: { hookId: string; eventType: string; payload: unknown; receivedAt: number; reason: string }): Promise<boolean>;
  countDeadLetters(): Promise<number>;
  /** What is still to process (dead letters are not), for the operator's gauges. */
  backlog(): Promise<InboxBacklog>;
  /** Unprocessed entries, oldest first. */
  listUnprocessed(limit: number): Promise<InboxEntry[]>;
  /**
   * Claims up to `limit` unprocessed entries, oldest first, that no lease
   * holds at `now` and that failed fewer than `maxAttempts` times: each is
   * leased until `now + leaseMs`, atomically, so two processes draining the
   * same inbox never take the same row; an expired lease (a crashed
   * process) lets another take it.
   */
  claimUnprocessed(options: { limit: number; leaseMs: number; now: number; maxAttempts: number }): Promise<InboxEntry[]>;
  /** Marks the entry processed and ends its lease. */
  markProcessed(hookId: string, at: number): Promise<void>;
  /**
   * Records the failure and ends the lease, so the entry is retried; its
   * `maxAttempts`-th failure makes it a dead letter instead, processed at
   * `at`, whose reason names the attempts and the last error. Answers
   * whether it did.
   */
  markFailed(hookId: string, error: string, options: { maxAttempts: number; at: number }): Promise<{ deadLetter: boolean }>;
  /** Makes a stored entry a dead letter at `at` (processed, never taken again) with the reason: one the processor cannot read. */
  markDeadLetter(hookId: string, reason: string, at: number): Promise<void>;
  /** Dead-letters the unprocessed entries that already failed `maxAttempts` times (left so by an earlier version); answers how many. */
  deadLetterExhausted(options: { maxAttempts: number; at: number }): Promise<number>;
  get(hookId: string): Promise<InboxEntry | null>;
  /** Deletes processed entries (dead letters aside) processed before `at`: past the sender's retries, a hook-id dedupes nothing. */
  purgeProcessedBefore(at: number, limit?: number): Promise<number>;
  /**
   * Deletes dead letters that became one before `at` (a payload it could not
   * read, or a delivery given up after its last failure), each with the raw
   * body a person may have needed.
   */
  purgeDeadLettersBefore(at: number, limit?: number): Promise<number>;
}

export interface AppointmentState {
  organizationId: string;
  appointmentId: string;
  status: string;
  /** The event payload's `updatedAt` (ISO 8601): events are ordered on it, never on arrival. */
  updatedAt: string;
  facilityId: string;
  scheduledStartDate: string;
  scheduledEndDate: string;
}

export interface AppointmentStateRepository {
  get(organizationId: string, appointmentId: string): Promise<AppointmentState | null>;
  /**
   * Applies the state when it is newer than the stored one (by `updatedAt`;
   * on a tie a cancellation wins), atomically. A stale event never re-opens
   * a cancelled appointment. Returns whether it was applied and what was
   * stored before.
   */
  applyIfNewer(state: AppointmentState): Promise<{ applied: boolean; previous: AppointmentState | null }>;
  list(organizationId: string): Promise<AppointmentState[]>;
  /** Deletes the states of appointments scheduled to end on a day (UTC) before `at`'s, last updated before `at`. */
  purgeEndedBefore(at: number, limit?: number): Promise<number>;
}

export interface UsedTokenIdRepository {
  /** Remembers a host token's `jti` until `expiresAt`; false when it was already used. */
  remember(jti: string, expiresAt: number): Promise<boolean>;
  purgeExpired(now: number, limit?: number): Promise<number>;
}

export interface NoteDraft {
  organizationId: string;
  userId: string;
  noteId: string;
  /** The changed writable fields, as typed. */
  fields: Record<string, string>;
  /** The values the user started from for those fields. */
  baseline: Record<string, string>;
  noteVersion: number | null;
  updatedAt: number;
}

export interface NoteDraftRepository {
  get(organizationId: string, userId: string, noteId: string): Promise<NoteDraft | null>;
  /**
   * Merges `draft` into the stored one field by field, in one statement: its fields (with their baselines)
   * replace those of the same name, the others stay, since two tabs of one user keep one draft of a note. A field
   * in `released` (name to the text that tab last stored) goes only while the stored text is still that text, so
   * a tab letting go of its field never drops what another tab typed there since. The row goes when no field is
   * left. Answers the draft now stored, null when there is none.
   */
  put(draft: NoteDraft, released?: Record<string, string>): Promise<NoteDraft | null>;
  delete(organizationId: string, userId: string, noteId: string): Promise<boolean>;
  /**
   * Replaces the draft `read` with `next`, or deletes it when `next` is null, in one statement and
   * only while the stored draft still holds `read`'s fields, baseline and note version: a draft
   * written since (an autosave landing after the read) is newer and stays as it is.
   * True when it replaced or deleted.
   */
  replaceIfUnchanged(read: NoteDraft, next: NoteDraft | null): Promise<boolean>;
  /** Deletes drafts last written before `at`, in every organization. */
  purgeUntouchedBefore(at: number, limit?: number): Promise<number>;
  /** Deletes drafts last written before `at` of notes known signed (`note_states`): text that can only be copied. */
  purgeOfSignedNotesBefore(at: number, limit?: number): Promise<number>;
}

export interface CreatedTask {
  organizationId: string;
  noteId: string;
  taskId: string;
  createdBy: string;
  /** The task as the service returned it. */
  task: unknown;
  createdAt: number;
}

export interface CreatedTaskRepository {
  insert(task: CreatedTask): Promise<void>;
  listByNote(organizationId: string, noteId: string): Promise<CreatedTask[]>;
  /** Deletes the records of tasks created before `at`, in every organization. */
  purgeCreatedBefore(at: number, limit?: number): Promise<number>;
}

/** What a write to the service is about (`write_intents.kind`). */
export type WriteIntentKind = "task" | "hold" | "note_patch" | "image_delete";
/**
 * `pending` until the service answers; `done`; `refused` (a definite refusal
 * before the service acted); `unknown` (it may have acted).
 */
export type WriteOutcome = "pending" | "done" | "refused" | "unknown";

/** A write recorded before the service is called (issue 35 item 4), so its outcome outlives the request. */
export interface WriteIntent {
  /** The BFF's UUID for the write, also sent to the service as its idempotency key. */
  id: string;
  organizationId: string;
  userId: string;
  kind: WriteIntentKind;
  /** The note (task, note_patch, image_delete) or the slot's key (hold). */
  subjectId: string;
  /** What was asked: enough to show the user and to match the write on the next read. */
  request: unknown;
  outcome: WriteOutcome;
  /** What the service made, once known: the task's or the hold's id. */
  resultId: string | null;
  /** When it was last sent: recorded, or sent again (`resend`); what it made lasts from then. */
  createdAt: number;
  settledAt: number | null;
}

export interface WriteIntentRepository {
  /** Records a write about to be sent, as `pending`. */
  record(intent: Pick<WriteIntent, "id" | "organizationId" | "userId" | "kind" | "subjectId" | "request" | "createdAt">): Promise<void>;
  /**
   * Settles a write that is still `pending` or `unknown` (a later read may settle an unknown one);
   * true when it did. A settled `done` or `refused` is final. `sentAt`: dated back to an earlier send (a refused
   * resend made nothing: what the first send may have made lasts from then).
   */
  settle(organizationId: string, id: string, settlement: { outcome: Exclude<WriteOutcome, "pending">; resultId?: string | null; at: number; sentAt?: number }): Promise<boolean>;
  /**
   * A write whose outcome is unknown, about to be sent again under its id (the idempotency key): `pending` again,
   * dated `at`; answers it so. `sentAt`: its `createdAt` as the caller read it. Null when it was settled or sent
   * again since (another tab's resend): it is not to be sent.
   */
  resend(organizationId: string, id: string, resend: { sentAt: number; at: number }): Promise<WriteIntent | null>;
  get(organizationId: string, id: string): Promise<WriteIntent | null>;
  /** The `pending` and `unknown` writes of one kind, oldest first, narrowed to a user and/or a subject. */
  listUnsettled(organizationId: string, kind: WriteIntentKind, filter?: { userId?: string; subjectId?: string }): Promise<WriteIntent[]>;
  /** The writes still `pending` that were recorded from `from` until before `to`, in every organization. */
  listPendingRecordedBetween(from: number, to: number): Promise<WriteIntent[]>;
  /** Deletes writes recorded before `at`, in every organization. */
  purgeCreatedBefore(at: number, limit?: number): Promise<number>;
}

/** A slot hold Tandem made, and whose it is (DESIGN.md "Rules": a hold belongs to the user, not to a view). */
export interface StoredSlotHold {
  organizationId: string;
  /** The service's hold id, a raw UUID in lower case. */
  holdId: string;
  /** The host token's `sub`: only this user sees and releases the hold. */
  userId: string;
  patientId: string | null;
  /** PHI: the patient's name as the EHR gave it when the hold was made ("Alvarez, Maria"), or null (none, or read:patients not granted). */
  patientName: string | null;
  /** The slot, in the form the service gives (`prv_`, `fac_`; times with the facility's offset). */
  providerId: string;
  facilityId: string;
  startsAt: string;
  endsAt: string;
  appointmentTypeId: string;
  slotLengthMinutes: number;
  isNewPatient: boolean;
  /** The service's expiry, epoch ms: active while `now < expiresAt`. */
  expiresAt: number;
  heldAt: number;
}

export interface SlotHoldRepository {
  insert(hold: StoredSlotHold): Promise<void>;
  /**
   * Records the hold unless the user already has `limit` active at `now`;
   * false when refused. Atomic per organization and user, across processes:
   * two holds made at once cannot both be the user's third.
   */
  insertWithinLimit(hold: StoredSlotHold, limit: number, now: number): Promise<boolean>;
  /** The user's holds in the organization that are active at `now`, soonest to expire first (then oldest held). */
  listActive(organizationId: string, userId: string, now: number): Promise<StoredSlotHold[]>;
  countActive(organizationId: string, userId: string, now: number): Promise<number>;
  /** The hold whoever holds it, active or expired (until purged). */
  get(organizationId: string, holdId: string): Promise<StoredSlotHold | null>;
  /** False when there was no such hold. */
  delete(organizationId: string, holdId: string): Promise<boolean>;
  /** Deletes holds expired at `now`, in every organization; returns how many. */
  purgeExpired(now: number, limit?: number): Promise<number>;
}

export interface NoteStateRecord {
  organizationId: string;
  noteId: string;
  /** Only ever `signed`: the one state the service's mirror can lag and Tandem must not forget. */
  status: "signed";
  /** `write_conflict`: a write was refused as signed; `read`: a read said signed. */
  source: "write_conflict" | "read";
  learnedAt: number;
}

export interface NoteStateRepository {
  /** Records that the note is signed; a second call changes nothing (the first word stands) and answers false. */
  recordSigned(organizationId: string, noteId: string, source: NoteStateRecord["source"], at: number): Promise<boolean>;
  get(organizationId: string, noteId: string): Promise<NoteStateRecord | null>;
  /** Deletes records learned before `at`, in every organization. */
  purgeLearnedBefore(at: number, limit?: number): Promise<number>;
}

/** The note as a user last saw it in Tandem: writable field text and a digest per section. */
export interface NoteView {
  organizationId: string;
  userId: string;
  noteId: string;
  fields: Record<string, string>;
  sectionDigests: Record<string, string>;
  /** The service's `updatedAt` of the note seen, as given. */
  noteUpdatedAt: string | null;
  seenAt: number;
}

export interface NoteViewRepository {
  get(organizationId: string, userId: string, noteId: string): Promise<NoteView | null>;
  /** Replaces the user's last view of the note. */
  put(view: NoteView): Promise<void>;
  /** Deletes views last seen before `at`, in every organization; returns how many. */
  purgeSeenBefore(at: number, limit?: number): Promise<number>;
}

/** A user's last slot search in an organization: the slot finder's filters as its URL carries them (no patient data). */
export interface LastSlotSearch {
  organizationId: string;
  userId: string;
  search: Record<string, unknown>;
  savedAt: number;
}

export interface LastSlotSearchRepository {
  get(organizationId: string, userId: string): Promise<LastSlotSearch | null>;
  /** Replaces the user's last search in the organization (one row per user). */
  put(search: LastSlotSearch): Promise<void>;
  /** Forgets the user's last search in the organization. */
  delete(organizationId: string, userId: string): Promise<void>;
  /** Deletes searches saved before `at`, in every organization; returns how many. */
  purgeSavedBefore(at: number, limit?: number): Promise<number>;
}

/**
 * A standalone sign-in session (ADR 0010 "sessions live on the server"). The browser holds a random
 * secret; the store keeps only its hash. `profile` is what the service last
 * said of the user (validated by the sign-in module, opaque here).
 */
export interface StoredStandaloneSession {
  /** SHA-256 (hex) of the cookie's secret. */
  secretHash: string;
  /** A random id the user's session list shows and revokes by; not a credential. */
  sessionId: string;
  /** The id_token's `sub`. */
  userId: string;
  profile: unknown;
  selectedOrganizationId: string | null;
  /** The service's access token for re-checking the user, sealed with SESSION_SECRET. */
  sealedAccessToken: string | null;
  userAgent: string | null;
  createdAt: number;
  expiresAt: number;
  /** When the service last confirmed the user's roles and active status. */
  verifiedAt: number;
  revokedAt: number | null;
}

export interface StandaloneSessionRepository {
  insert(session: StoredStandaloneSession): Promise<void>;
  /** The session whose secret hashes to this, revoked or expired too (the caller decides). */
  findBySecretHash(secretHash: string): Promise<StoredStandaloneSession | null>;
  /** Records what the service said of the user at `verifiedAt`; false when the session is gone or revoked. */
  recordVerified(sessionId: string, profile: unknown, verifiedAt: number): Promise<boolean>;
  /** False when the session is gone or revoked. */
  selectOrganization(sessionId: string, organizationId: string): Promise<boolean>;
  /** Revokes one of the user's sessions; false when there was no such live session of theirs. */
  revoke(userId: string, sessionId: string, at: number): Promise<boolean>;
  /** Revokes every live session of the user but `exceptSessionId`; returns how many. */
  revokeAllOfUser(userId: string, at: number, exceptSessionId?: string): Promise<number>;
  /** The user's sessions neither revoked nor expired at `now`, newest first. */
  listLive(userId: string, now: number): Promise<StoredStandaloneSession[]>;
  /** Deletes sessions that expired or were revoked before `at`; returns how many. */
  purgeEndedBefore(at: number, limit?: number): Promise<number>;
}

/** A resource in a user's own trail, with the last time they touched it. */
export interface RecentResource {
  resourceId: string;
  lastAt: number;
  /** True when any of the user's entries for it is a write or a delete. */
  changed: boolean;
}

export interface AuditEntry {
  at: number;
  organizationId: string;
  /** The person (ADR 0024: their person key); in an entry from before person keys (`accountId` null), the account's `sub`. */
  userId: string;
  /** The account that acted (the host token's or the standalone sign-in's `sub`); null in entries from before ADR 0024. */
  accountId: string | null;
  action: "read" | "write" | "delete";
  /** e.g. `note`, `note_image`, `task`, `patient`. */
  resourceType: string;
  resourceId: string;
  traceId: string;
}

/** Whose trail: the person key (ADR 0024), and the account signed in, whose entries from before person keys are theirs too. */
export interface PersonOfEntries {
  userId: string;
  accountId: string;
}

export interface AuditTrail {
  /**
   * Resolves once the entry is committed (concurrent entries share one insert); rejects, with
   * StoreUnavailableError when the store cannot answer, when it could not be written.
   * A PHI read awaits it before answering (DESIGN.md "Rules": audit before PHI).
   */
  record(entry: AuditEntry): Promise<void>;
  /** Waits for the inserts in flight (nothing is held back in memory). */
  flush(): Promise<void>;
  list(organizationId: string): Promise<AuditEntry[]>;
  /**
   * The resources of the given types this person touched in the organization,
   * most recently touched first, at most `limit`: their entries under their
   * person key, and the account's own from before person keys (ADR 0024).
   */
  recentResources(organizationId: string, user: PersonOfEntries, resourceTypes: readonly string[], limit: number): Promise<RecentResource[]>;
  /**
   * Who wrote or deleted the given resources of one type in the organization
   * after `after` (exclusive), oldest first.
   */
  writesSince(organizationId: string, resourceType: string, resourceIds: readonly string[], after: number): Promise<AuditEntry[]>;
  /** Deletes entries written before `at`, in every organization. */
  purgeBefore(at: number, limit?: number): Promise<number>;
}

/**
 * Messages between the BFF processes sharing one PostgreSQL database
 * (LISTEN/NOTIFY on a channel of the store's schema).
 */
export interface StoreNotifications {
  /** Sends a payload (under 8000 bytes, PostgreSQL's limit) to every listener, this process's included. */
  notify(payload: string): Promise<void>;
  /** Listens on one dedicated connection, reconnected with backoff when lost. */
  listen(handlers: NotificationHandlers): NotificationListener;
}

export interface NotificationHandlers {
  onPayload(payload: string): void;
  /** A lost connection is listening again: whatever was sent meanwhile was missed. */
  onReconnected?(): void;
  onError?(error: unknown): void;
}

export interface NotificationListener {
  /** Settles after the first attempt to listen: rejected when it failed (the listener keeps retrying). */
  ready: Promise<void>;
  close(): Promise<void>;
}

export interface PoolUse {
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

/** What `AccountRowsRepository.adopt` moved: rows of the account, now the person's. */
export interface AdoptedRows {
  holds: number;
  drafts: number;
  views: number;
}

/** Rows kept under an account before person keys (ADR 0024), and the person they belong to. */
export interface AccountRowsRepository {
  /**
   * Moves the account's holds, drafts and last views in the organization to
   * the person key `userId`, in one transaction; where the person has a draft
   * or view of the same note already, the two become one (a draft keeps every
   * field of both, the newer text of a field both have; a view, the newer).
   */
  adopt(organizationId: string, accountId: string, userId: string): Promise<AdoptedRows>;
}

/** A waitlist entry (issue 38): PHI (the patient, their name, the note). */
export interface StoredWaitlistEntry {
  /** A UUID minted by the BFF. */
  id: string;
  organizationId: string;
  /** The host token's patient when the entry was made, as the token gave it. */
  patientId: string;
  patientName: string | null;
  preferences: WaitlistPreferences;
  /** The user (person key) who added it. */
  createdBy: string;
  createdAt: number;
  updatedAt: number;
  endedAt: number | null;
  endReason: WaitlistEndReason | null;
}

/** Who a freed slot was offered to (the contract's offer match, waiting since in epoch ms). */
export interface StoredOfferMatch {
  entryId: string;
  patientId: string;
  patientName: string | null;
  waitingSince: number;
}

/** What a settled offer holds: the free slot found, its kind, and who fits it. */
export interface OfferedSlot {
  providerId: string;
  facilityId: string;
  startsAt: string;
  endsAt: string;
  appointmentTypeId: string;
  slotLengthMinutes: number;
  isNewPatient: boolean;
  matches: StoredOfferMatch[];
}

export type WaitlistOfferStatus = "matching" | "offered" | "unmatched" | "abandoned";

/** A freed slot (one per cancellation and start) and, once matched, its offer. */
export interface StoredWaitlistOffer {
  id: string;
  organizationId: string;
  /** The cancelled appointment and its start: what makes a freed slot one. */
  freedKey: string;
  appointmentId: string;
  facilityId: string;
  /** The cancelled appointment's start, epoch ms. */
  slotStartsAt: number;
  /** When the cancellation's event reached the BFF. */
  freedAt: number;
  status: WaitlistOfferStatus;
  attempts: number;
  lastError: string | null;
  /** Set once `offered`. */
  offered: OfferedSlot | null;
  taken: { userId: string; entryId: string; at: number } | null;
}

export type WaitlistAddOutcome = { kind: "added"; entry: StoredWaitlistEntry } | { kind: "alreadyWaiting"; entry: StoredWaitlistEntry } | { kind: "full" };

export interface WaitlistRepository {
  /**
   * Adds the entry unless its patient already waits with the same preferences
   * (that entry is answered: a retried or repeated add is not a second entry)
   * or the organization already has `limit` waiting. Atomic per organization,
   * across processes.
   */
  add(entry: StoredWaitlistEntry, limit: number): Promise<WaitlistAddOutcome>;
  /** The entry, waiting or ended (until purged). */
  get(organizationId: string, id: string): Promise<StoredWaitlistEntry | null>;
  /** Waiting entries, longest waiting first, at most `limit`. */
  listWaiting(organizationId: string, limit: number): Promise<StoredWaitlistEntry[]>;
  /** Waiting entries whose range overlaps the local dates `from` to `to` (inclusive), longest waiting first, at most `limit`. */
  listWaitingOverlapping(organizationId: string, from: string, to: string, limit: number): Promise<StoredWaitlistEntry[]>;
  /** The patient's waiting entries (either id form). */
  listWaitingOfPatient(organizationId: string, patientId: string): Promise<StoredWaitlistEntry[]>;
  /** Replaces a waiting entry's preferences; null when there is no such waiting entry. */
  replacePreferences(organizationId: string, id: string, preferences: WaitlistPreferences, at: number): Promise<StoredWaitlistEntry | null>;
  /** Ends those of the entries still waiting; answers the ids it ended. */
  end(organizationId: string, ids: readonly string[], reason: WaitlistEndReason, at: number): Promise<string[]>;
  /** Ends (range_passed), in every organization, waiting entries whose `endDate` is before `date`; answers which, at most `limit`. */
  endRangesBefore(date: string, at: number, limit?: number): Promise<{ organizationId: string; id: string }[]>;
  /** Deletes entries that ended before `at`, in every organization. */
  purgeEndedBefore(at: number, limit?: number): Promise<number>;

  /** Records a freed slot to match (`matching`); false when that freed slot was already recorded (a duplicate, on any process). */
  recordFreedSlot(slot: Pick<StoredWaitlistOffer, "id" | "organizationId" | "freedKey" | "appointmentId" | "facilityId" | "slotStartsAt" | "freedAt">): Promise<boolean>;
  /** Claims up to `limit` `matching` rows no lease holds at `now` (oldest freed first), each leased until `now + leaseMs`. */
  claimFreedSlots(options: { limit: number; leaseMs: number; now: number }): Promise<StoredWaitlistOffer[]>;
  /** `matching` to `offered` with the offer; false when the row was settled already (another process's lease ran out under it). */
  settleOffered(organizationId: string, id: string, offered: OfferedSlot): Promise<boolean>;
  /** `matching` to `unmatched` or `abandoned`, with the reason. */
  settleUnoffered(organizationId: string, id: string, status: "unmatched" | "abandoned", reason: string | null): Promise<boolean>;
  /** A failed attempt: counted, its error kept, the lease ended and the next attempt not before `retryAt`. */
  retryFreedSlot(organizationId: string, id: string, error: string, retryAt: number): Promise<void>;
  getOffer(organizationId: string, id: string): Promise<StoredWaitlistOffer | null>;
  /** Offers neither taken nor past (their slot starts after `now`), soonest slot first, at most `limit`. */
  listOpenOffers(organizationId: string, now: number, limit: number): Promise<StoredWaitlistOffer[]>;
  /** Marks an open offer taken by the user for the entry, atomically: the first caller wins, a second gets false. */
  takeOffer(organizationId: string, id: string, taken: { userId: string; entryId: string; at: number }): Promise<boolean>;
  /** Gives back the user's take of the offer (the hold was refused); false when it was not theirs at `at`. */
  releaseOffer(organizationId: string, id: string, taken: { userId: string; at: number }): Promise<boolean>;
  /** Deletes offers whose slot started before `at`, in every organization. */
  purgeOffersBefore(at: number, limit?: number): Promise<number>;
}

export interface Store {
  /** Null on PGlite: one process owns the embedded database, so there is no one to tell. */
  notifications: StoreNotifications | null;
  installations: InstallationRepository;
  inbox: WebhookInboxRepository;
  appointmentStates: AppointmentStateRepository;
  usedTokenIds: UsedTokenIdRepository;
  noteDrafts: NoteDraftRepository;
  tasks: CreatedTaskRepository;
  holds: SlotHoldRepository;
  writeIntents: WriteIntentRepository;
  noteStates: NoteStateRepository;
  noteViews: NoteViewRepository;
  lastSlotSearches: LastSlotSearchRepository;
  standaloneSessions: StandaloneSessionRepository;
  accountRows: AccountRowsRepository;
  waitlist: WaitlistRepository;
  audit: AuditTrail;
  /** Readiness: a trivial query on one of the store's tables. Like every call, it fails with StoreUnavailableError when the store cannot answer. */
  ping(): Promise<void>;
  /**
   * PGlite only, which has no autovacuum: vacuums each table whose dead rows
   * (purged or replaced) passed autovacuum's default threshold, and answers
   * which. Null on PostgreSQL, whose autovacuum does it.
   */
  reclaimSpace: (() => Promise<string[]>) | null;
  /** Connections of the PostgreSQL pool now; PGlite is one session: 1 connection, none idle, none waiting. */
  poolUse(): PoolUse;
  close(): Promise<void>;
}
