import type { AllWritableFieldValues, NoteConflictDetails, NoteDraftBody, NoteDraftPutRequest, NotePatchRequest, WritableFieldValues } from "#contract/app-api/note.ts";
import { SIGNED_NOTE_STATUS, WRITABLE_NOTE_FIELDS, writableValues, type Note, type WritableNoteField } from "#contract/clinic-api/note.ts";
import type { SaveFailureReason } from "#src/api/note-queries.ts";
import { formatRetryWait } from "#src/lib/time-format.ts";

// Editing the four writable fields of a note, as a pure state machine (no
// React, no timers, no fetch; the hook in use-note-editor.ts runs the
// effects). The rules it keeps:
// - each field has the value the user started from (`baseline`) and the
//   text typed (`value`); a field is dirty when they differ;
// - "Saved" only after the service confirms, and only for the text actually
//   sent: typing during a save stays dirty;
// - typed text is never overwritten: when the note's value of a dirty field
//   is no longer its baseline, the field is in conflict (derived, not stored)
//   until the user keeps theirs or takes the EHR's;
// - a signed note (or a `note_signed` answer) is read-only, the text kept.

export interface FieldState {
  /** What the user started from: the note's value when they began typing (or the one they chose to overwrite). */
  baseline: string;
  /** The text in the field. */
  value: string;
}

/**
 * Why a save did not go through, where saving again is the way on, naming
 * the system that failed (DESIGN.md "Rules"): the EHR did not take it or
 * answer (`ehr`), the clinic data service was not reached or failed
 * (`service`), Tandem's server had trouble, its database for one (`tandem`),
 * was restarting (`restarting`: a deploy's drain) or could not be reached
 * (`unreached`); Tandem is not active for the organization, uninstalled or
 * suspended (`inactive`); the service asked us to slow down (`busy`); or no
 * answer came in time, so the text may be there already (`unconfirmed`:
 * saving the same text again is harmless). A save that met Tandem's server
 * restarting or unreached is sent again by itself once it answers (issue 35),
 * and one that met Tandem inactive once it answers again (reinstalled); one the
 * service turned away as busy, once its `Retry-After` has passed (a 429 was
 * not processed, so nothing is saved twice).
 */
export type SystemSaveFailure = SaveFailureReason;
/** `retryAfterSeconds`: the wait the answer gave; a `busy` save goes again after it. */
export type SaveFailure = { kind: "system"; reason: SystemSaveFailure; retryAfterSeconds?: number | undefined } | { kind: "other"; message: string; canRetry: boolean };

export type SavePhase =
  | { kind: "idle" }
  /** `sent`: the values in the PATCH; only these are confirmed by its answer. */
  | { kind: "saving"; sent: WritableFieldValues }
  | { kind: "saved"; atMs: number }
  | { kind: "failed"; failure: SaveFailure };

/** The note changed on the server while the user had unsaved text. */
export interface RemoteChangeNotice {
  /** Fields the user had not touched, updated to the note's new text. */
  updatedFields: WritableNoteField[];
  /** Fields the user had touched whose text changed in the EHR: shown as conflicts. */
  conflictFields: WritableNoteField[];
}

export type DraftSyncFailure = "unreached" | "inactive";

/** Where the draft of the current text is kept, and which revision of it. */
export interface DraftStore {
  where: "none" | "bff" | "session";
  /** The `draftRevision` last stored (-1: none of this session's). */
  revision: number;
  /** Failed attempts to reach the BFF with the draft: a change re-runs the sync. */
  failures: number;
  /** Why the last attempt failed: the BFF not reached or failing, or Tandem not active for the organization. */
  lastFailure: DraftSyncFailure | null;
  /**
   * The fields this tab has stored in the BFF's draft, as it stored them. The BFF keeps one draft per user and
   * note, merged by field from every tab of the user; a field this tab no longer holds is released with this text,
   * so what another tab typed there since stays.
   */
  held: WritableFieldValues;
}

export interface EditorState {
  /** The note's values of the four fields as last read or answered. */
  serverValues: AllWritableFieldValues;
  noteVersion: number;
  noteStatus: string;
  fields: Record<WritableNoteField, FieldState>;
  save: SavePhase;
  lastSavedAtMs: number | null;
  /** A save was refused because the note is signed (whatever a later read says). */
  signedAnswer: boolean;
  /** Set when the user may not change notes (role). */
  cannotEditReason: string | null;
  /** A stored draft found on open, waiting for Restore or Discard. */
  draftOffer: NoteDraftBody | null;
  remoteChange: RemoteChangeNotice | null;
  draftStore: DraftStore;
  /** Bumped by the user's changes (typing, restore, a conflict choice): restarts the autosave wait. */
  changeRevision: number;
  /** Bumped whenever the draft's content (dirty values or their baselines) changes: restarts the draft wait. */
  draftRevision: number;
}

export interface ServerNote {
  values: AllWritableFieldValues;
  version: number;
  status: string;
}

/** What the editor keeps of a note read from the EHR or answered to a save. */
export const serverNoteOf = (note: Note): ServerNote => ({ values: writableValues(note), version: note.version, status: note.status });

export type EditorAction =
  | { type: "edited"; field: WritableNoteField; value: string }
  /** The note as re-read (every 20 s, on focus, after a live event). */
  | { type: "noteRead"; note: ServerNote }
  | { type: "saveStarted"; sent: WritableFieldValues }
  | { type: "saveSucceeded"; note: ServerNote; atMs: number }
  | { type: "saveFailed"; failure: SaveFailure }
  | { type: "saveConflict"; details: NoteConflictDetails }
  | { type: "conflictResolved"; field: WritableNoteField; choice: "mine" | "theirs" }
  | { type: "draftRestored" }
  | { type: "draftDiscarded" }
  | { type: "remoteChangeDismissed" }
  | { type: "permissionChanged"; cannotEditReason: string | null }
  /** `stored`: the fields the BFF acknowledged (where "bff"). */
  | { type: "draftStored"; where: "bff"; revision: number; stored: WritableFieldValues }
  /** `cause`: why the BFF did not store it. */
  | { type: "draftStored"; where: "session"; revision: number; cause: DraftSyncFailure }
  /** The BFF could not be reached to store or release the draft. */
  | { type: "draftSyncFailed"; cause: DraftSyncFailure }
  /** The BFF no longer holds this tab's fields (released after the save or a discard). */
  | { type: "draftCleared" };

export const SIGNED_WITH_TEXT_REASON = "This note was signed in the EHR; it can no longer be changed here. Your unsaved text is below to copy.";
export const SIGNED_REASON = "This note is signed in the EHR; it can no longer be changed here.";
const SYSTEM_FAILURE_TEXT: Record<SystemSaveFailure, string> = {
  ehr: "Not saved: the EHR did not answer",
  service: "Not saved: the clinic data service did not answer",
  tandem: "Not saved: Tandem's server is having trouble",
  restarting: "Not saved yet: Tandem's server is restarting; your text will be saved when Tandem is back",
  unreached: "Not saved yet: Tandem's server is not answering; your text will be saved when Tandem is back",
  inactive: "Not saved yet: Tandem is not active for this organization; your text will be saved once it is active again",
  busy: "Not saved yet: the clinic data service is busy",
  unconfirmed: "Not confirmed: the EHR did not confirm the save, so your text may be saved already",
};

/** How long a save turned away as busy waits before it goes again, when the service did not say. */
const BUSY_RETRY_DEFAULT_SECONDS = 10;

/**
 * Failures a save is sent again for by itself, a few times (use-note-save.ts): the EHR or the service failed, or
 * did not confirm. Sending the same text again is harmless: the BFF's conflict check passes a field already at the
 * text sent.
 */
export const RESENT_FAILURES: ReadonlySet<SystemSaveFailure> = new Set(["ehr", "service", "unconfirmed"]);

type SystemFailure = Extract<SaveFailure, { kind: "system" }>;

/**
 * Seconds after a failed save until it is sent again by itself: one turned away as busy, after the service's wait;
 * one the EHR or the service failed or did not confirm, after the wait the failure was given (none once its tries
 * are spent). Null when it waits for Retry or more typing.
 */
export function resendWaitOf(failure: SaveFailure): number | null {
  if (failure.kind !== "system") return null;
  if (failure.reason === "busy") return failure.retryAfterSeconds ?? BUSY_RETRY_DEFAULT_SECONDS;
  return RESENT_FAILURES.has(failure.reason) ? (failure.retryAfterSeconds ?? null) : null;
}

/** `secondsLeft`: of the wait, where the caller counts it down; the whole wait otherwise. */
function systemFailureText(failure: SystemFailure, secondsLeft?: number): string {
  const wait = resendWaitOf(failure);
  return wait === null ? SYSTEM_FAILURE_TEXT[failure.reason] : `${SYSTEM_FAILURE_TEXT[failure.reason]}; Tandem tries again ${formatRetryWait(secondsLeft ?? wait)}`;
}

const fieldsFrom = (values: AllWritableFieldValues): Record<WritableNoteField, FieldState> => ({
  additionalHpiComments: { baseline: values.additionalHpiComments, value: values.additionalHpiComments },
  impressionsPlansComments: { baseline: values.impressionsPlansComments, value: values.impressionsPlansComments },
  otherExamComments: { baseline: values.otherExamComments, value: values.otherExamComments },
  stickyNoteDescription: { baseline: values.stickyNoteDescription, value: values.stickyNoteDescription },
});

export interface InitialEditorInput {
  note: ServerNote;
  cannotEditReason: string | null;
  /** The stored draft (BFF, or this tab's fallback copy), if any. */
  draft: NoteDraftBody | null;
  draftWhere: "bff" | "session" | null;
}

export function initialEditorState({ note, cannotEditReason, draft, draftWhere }: InitialEditorInput): EditorState {
  const state: EditorState = {
    serverValues: note.values,
    noteVersion: note.version,
    noteStatus: note.status,
    fields: fieldsFrom(note.values),
    save: { kind: "idle" },
    lastSavedAtMs: null,
    signedAnswer: false,
    cannotEditReason,
    draftOffer: draft,
    remoteChange: null,
    // A draft read from the BFF is held: a Discard releases what it showed. One from this tab's copy is not yet in the BFF.
    draftStore: { where: draft && draftWhere ? draftWhere : "none", revision: -1, failures: 0, lastFailure: null, held: draft && draftWhere === "bff" ? draft.fields : {} },
    changeRevision: 0,
    draftRevision: 0,
  };
  // A draft whose text the note already has (saved, but the delete was lost) offers nothing: it is only cleaned up.
  return draftOfferOf(state) ? state : { ...state, draftOffer: null };
}

// ---- Derived values ----

export const isDirty = (state: EditorState, field: WritableNoteField): boolean => state.fields[field].value !== state.fields[field].baseline;

export function dirtyFieldsOf(state: EditorState): WritableNoteField[] {
  return WRITABLE_NOTE_FIELDS.filter((field) => isDirty(state, field));
}

export function readOnlyReasonOf(state: EditorState): string | null {
  if (state.cannotEditReason !== null) return state.cannotEditReason;
  if (state.signedAnswer || state.noteStatus === SIGNED_NOTE_STATUS) return dirtyFieldsOf(state).length > 0 ? SIGNED_WITH_TEXT_REASON : SIGNED_REASON;
  return null;
}

export interface FieldConflict {
  /** The user's text. */
  mine: string;
  /** The note's text now. */
  theirs: string;
}

/** A dirty field whose note value is no longer what the user started from. None while read-only (nothing can be saved). */
export function conflictsOf(state: EditorState): Partial<Record<WritableNoteField, FieldConflict>> {
  if (readOnlyReasonOf(state) !== null) return {};
  const conflicts: Partial<Record<WritableNoteField, FieldConflict>> = {};
  for (const field of WRITABLE_NOTE_FIELDS) {
    const { value, baseline } = state.fields[field];
    const theirs = state.serverValues[field];
    if (value !== baseline && theirs !== baseline) conflicts[field] = { mine: value, theirs };
  }
  return conflicts;
}

const hasConflicts = (state: EditorState) => Object.keys(conflictsOf(state)).length > 0;

/** Typing is possible: not read-only, and no stored draft waiting for Restore or Discard (typing first would mix the two). */
export const canTypeIn = (state: EditorState): boolean => readOnlyReasonOf(state) === null && state.draftOffer === null;

/** The PATCH for the dirty fields with their baselines; null when there is nothing that may be saved now. */
export function saveRequestOf(state: EditorState): NotePatchRequest | null {
  if (!canTypeIn(state) || state.save.kind === "saving" || hasConflicts(state)) return null;
  const dirty = dirtyFieldsOf(state);
  if (dirty.length === 0) return null;
  const request: NotePatchRequest = {};
  const baseline: WritableFieldValues = {};
  for (const field of dirty) {
    request[field] = state.fields[field].value;
    baseline[field] = state.fields[field].baseline;
  }
  request.baseline = baseline;
  return request;
}

/** The fields a PATCH request changes (its `baseline` left out). */
export function sentValuesOf(request: NotePatchRequest): WritableFieldValues {
  const sent: WritableFieldValues = {};
  for (const field of WRITABLE_NOTE_FIELDS) {
    const value = request[field];
    if (value !== undefined) sent[field] = value;
  }
  return sent;
}

/** What this tab stored in the BFF and no longer holds dirty, with the text it stored there. */
function releasedOf(state: EditorState): WritableFieldValues {
  const released: WritableFieldValues = {};
  for (const field of WRITABLE_NOTE_FIELDS) {
    const held = state.draftStore.held[field];
    if (held !== undefined && !isDirty(state, field)) released[field] = held;
  }
  return released;
}

function draftRequestOf(state: EditorState, dirty: readonly WritableNoteField[]): NoteDraftPutRequest {
  const fields: WritableFieldValues = {};
  const baseline: WritableFieldValues = {};
  for (const field of dirty) {
    fields[field] = state.fields[field].value;
    baseline[field] = state.fields[field].baseline;
  }
  const released = releasedOf(state);
  return { fields, baseline, noteVersion: state.noteVersion, ...(Object.keys(released).length > 0 ? { released } : {}) };
}

/**
 * The draft to keep: the dirty fields as typed and what the user started from, and the fields this tab stored
 * before and no longer holds (`released`). Null when nothing is dirty.
 */
export function draftBodyOf(state: EditorState): NoteDraftPutRequest | null {
  const dirty = dirtyFieldsOf(state);
  return dirty.length === 0 ? null : draftRequestOf(state, dirty);
}

/** Nothing is dirty: the PUT releasing what this tab stored; null when it stored nothing. */
export function draftReleaseOf(state: EditorState): NoteDraftPutRequest | null {
  return Object.keys(state.draftStore.held).length === 0 ? null : draftRequestOf(state, []);
}

/** The current text is not yet in the BFF (or only in this tab): store it. Never while a stored draft waits for the user's choice. */
export function needsDraftPut(state: EditorState): boolean {
  if (state.draftOffer !== null || dirtyFieldsOf(state).length === 0) return false;
  return state.draftStore.revision !== state.draftRevision || state.draftStore.where !== "bff";
}

/** Nothing is dirty, yet this tab still keeps a draft (in the BFF or its own copy): let it go. */
export function needsDraftRelease(state: EditorState): boolean {
  return state.draftOffer === null && dirtyFieldsOf(state).length === 0 && state.draftStore.where !== "none";
}

/** Where the latest text is kept, for "Draft kept"; null while it is not (yet). */
export function draftKeptOf(state: EditorState): "bff" | "session" | null {
  if (dirtyFieldsOf(state).length === 0 || state.draftStore.revision !== state.draftRevision) return null;
  return state.draftStore.where === "none" ? null : state.draftStore.where;
}

/** The latest text is on screen only: storing it failed and this tab could not keep it either; it is tried again. Null when it is kept. */
export function draftUnkeptText(state: EditorState): string | null {
  if (state.draftStore.failures === 0 || dirtyFieldsOf(state).length === 0 || draftKeptOf(state) !== null) return null;
  return state.draftStore.lastFailure === "inactive"
    ? "Draft not kept: Tandem is not active for this organization. Keep this page open; it is sent again once Tandem is active."
    : "Draft not kept: Tandem's server did not answer. Keep this page open; it is sent again by itself.";
}

/** Autosave may run: something to save, nothing to decide first. */
export const canAutosave = (state: EditorState): boolean => saveRequestOf(state) !== null;

/** After this long the last save is sent again by itself (resendWaitOf); null when it is not. */
export function saveRetryDelayMs(state: EditorState): number | null {
  const wait = state.save.kind === "failed" ? resendWaitOf(state.save.failure) : null;
  return wait === null ? null : wait * 1000;
}

/**
 * The last save met Tandem's server restarting or unreachable, or Tandem not active for the organization: it is sent
 * again by itself once the server answers (`"down"`: also on a backoff; `"inactive"`: only then, as nothing changes
 * until it is reinstalled). Null when the save waits for nothing of Tandem's.
 */
export function saveWaitingForTandem(state: EditorState): "down" | "inactive" | null {
  if (state.save.kind !== "failed" || state.save.failure.kind !== "system") return null;
  const { reason } = state.save.failure;
  if (reason === "inactive") return "inactive";
  return reason === "restarting" || reason === "unreached" ? "down" : null;
}

/**
 * A draft found on open that only this tab holds (reloaded before the BFF had it): it goes to the BFF as it is,
 * while it waits for Restore or Discard, so the tab's copy can go (sessionStorage only until the BFF has the text).
 */
export function offeredDraftToKeep(state: EditorState): NoteDraftPutRequest | null {
  if (state.draftOffer === null || state.draftStore.where !== "session") return null;
  const { fields, baseline, noteVersion } = state.draftOffer;
  return { fields, baseline, noteVersion };
}

export type EditorStatus =
  | { kind: "readOnly"; reason: string }
  /** A stored draft found on open waits for Restore or Discard: unsaved text, whatever the fields show. */
  | { kind: "draftWaiting" }
  | { kind: "saving"; count: number }
  | { kind: "conflict"; count: number }
  | { kind: "failed"; failure: SaveFailure; count: number }
  | { kind: "unsaved"; count: number; lastSavedAtMs: number | null }
  | { kind: "saved"; atMs: number }
  | { kind: "clean" };

export function statusOf(state: EditorState): EditorStatus {
  const readOnlyReason = readOnlyReasonOf(state);
  if (readOnlyReason !== null) return { kind: "readOnly", reason: readOnlyReason };
  // The same derivation as the restore notice (draftOfferOf), so the header never says "No unsaved changes" beside it.
  if (draftOfferOf(state) !== null) return { kind: "draftWaiting" };
  const count = dirtyFieldsOf(state).length;
  if (state.save.kind === "saving") return { kind: "saving", count: Object.keys(state.save.sent).length };
  const conflictCount = Object.keys(conflictsOf(state)).length;
  if (conflictCount > 0) return { kind: "conflict", count: conflictCount };
  if (state.save.kind === "failed" && count > 0) return { kind: "failed", failure: state.save.failure, count };
  if (count > 0) return { kind: "unsaved", count, lastSavedAtMs: state.lastSavedAtMs };
  if (state.lastSavedAtMs !== null) return { kind: "saved", atMs: state.lastSavedAtMs };
  return { kind: "clean" };
}

/**
 * The status line ("Saved 9:40 AM": the caller writes the time, through src/lib/time-format.ts); `secondsLeft`: of
 * a resend's wait (resendWaitOf), where the caller counts it down.
 */
export function statusText(status: EditorStatus, clock: (epochMs: number) => string, secondsLeft?: number): string {
  switch (status.kind) {
    case "readOnly":
      return `Read-only: ${status.reason}`;
    case "draftWaiting":
      return "Unsaved text from earlier: restore or discard it";
    case "saving":
      return "Saving…";
    case "conflict":
      return `Not saved: ${status.count === 1 ? "a field was" : `${status.count} fields were`} changed in the EHR; choose which text to keep`;
    case "failed":
      return status.failure.kind === "system" ? systemFailureText(status.failure, secondsLeft) : `Not saved: ${status.failure.message}`;
    case "unsaved":
      return "Unsaved changes";
    case "saved":
      return `Saved ${clock(status.atMs)}`;
    case "clean":
      return "No unsaved changes";
  }
}

/** A field's own status, read with its textarea. */
export function fieldStatusText(state: EditorState, field: WritableNoteField): string {
  const dirty = isDirty(state, field);
  if (readOnlyReasonOf(state) !== null) return dirty ? "Not saved: the note is read-only. Copy your text to keep it." : "Read-only";
  if (state.draftOffer !== null) return "Restore or discard your earlier unsaved text first";
  if (conflictsOf(state)[field]) return "Changed in the EHR since you started: choose which text to keep";
  if (!dirty) return "";
  if (state.save.kind === "saving" && state.save.sent[field] === state.fields[field].value) return "Saving…";
  if (state.save.kind === "failed") return state.save.failure.kind === "system" ? systemFailureText(state.save.failure) : "Not saved";
  return "Changed, not saved yet";
}

export interface DraftOfferRow {
  field: WritableNoteField;
  /** The text in the draft. */
  draftText: string;
  /** The note's text now. */
  noteText: string;
  /** The note's text is no longer what the draft started from: restoring makes a conflict to decide. */
  noteChangedSinceDraft: boolean;
}

export interface DraftOfferView {
  updatedAt: string;
  rows: DraftOfferRow[];
}

/** What a stored draft would change, field by field; fields whose text the note already has are left out. */
export function draftOfferOf(state: EditorState): DraftOfferView | null {
  const draft = state.draftOffer;
  if (draft === null) return null;
  const rows: DraftOfferRow[] = [];
  for (const field of WRITABLE_NOTE_FIELDS) {
    const draftText = draft.fields[field];
    if (draftText === undefined) continue;
    const noteText = state.serverValues[field];
    if (draftText === noteText) continue;
    const baseline = draft.baseline[field];
    // Without a baseline for the field, the draft's note version is the only hint.
    const noteChangedSinceDraft = baseline !== undefined ? baseline !== noteText : draft.noteVersion !== null && draft.noteVersion !== state.noteVersion;
    rows.push({ field, draftText, noteText, noteChangedSinceDraft });
  }
  return rows.length === 0 ? null : { updatedAt: draft.updatedAt, rows };
}

/** All unsaved text as plain text, for copying when the note is read-only (a pending draft's text included). */
export function draftTextOf(state: EditorState, labelOf: (field: WritableNoteField) => string): string {
  const parts: string[] = [];
  const offer = draftOfferOf(state);
  for (const field of WRITABLE_NOTE_FIELDS) {
    const offered = offer?.rows.find((row) => row.field === field);
    const text = isDirty(state, field) ? state.fields[field].value : offered?.draftText;
    if (text !== undefined) parts.push(`${labelOf(field)}:\n${text}`);
  }
  return parts.join("\n\n");
}

// ---- Transitions ----

interface MergeOptions {
  /** Values of an in-flight (or just confirmed) save: the server holding them is our own doing. */
  own: WritableFieldValues;
  /** A version bump may be our own save: no notice for the version alone. */
  versionMayBeOurs: boolean;
  /** Tell the user (the remote-change notice); off for conflict answers, which show at the fields. */
  notify: boolean;
}

/**
 * Takes the note's values as the server has them now. Fields the user has
 * not touched follow silently; a touched field whose server value changed
 * keeps its text and becomes a conflict (its baseline no longer matches).
 */
function mergeServer(state: EditorState, note: ServerNote, options: MergeOptions): EditorState {
  if (note.version < state.noteVersion) return state; // an older read, overtaken by a save's answer
  const hadDirty = dirtyFieldsOf(state).length > 0;
  const wasConflicting = conflictsOf(state);
  const fields = { ...state.fields };
  const updatedFields: WritableNoteField[] = [];
  for (const field of WRITABLE_NOTE_FIELDS) {
    const incoming = note.values[field];
    const previous = state.serverValues[field];
    const { value, baseline } = state.fields[field];
    if (value === baseline) {
      if (value !== incoming) {
        fields[field] = { baseline: incoming, value: incoming };
        if (incoming !== previous && options.own[field] !== incoming) updatedFields.push(field);
      }
    } else if (incoming === value) {
      fields[field] = { baseline: incoming, value };
    } else if (options.own[field] === incoming) {
      // Our own save landed; what was typed since stays dirty against it.
      fields[field] = { baseline: incoming, value };
    }
  }
  const sameNote = note.version === state.noteVersion && note.status === state.noteStatus && WRITABLE_NOTE_FIELDS.every((field) => note.values[field] === state.serverValues[field]);
  if (sameNote && WRITABLE_NOTE_FIELDS.every((field) => fields[field] === state.fields[field])) return state; // a re-read with nothing new
  const next: EditorState = { ...state, fields, serverValues: note.values, noteVersion: note.version, noteStatus: note.status };
  const conflictFields = (Object.keys(conflictsOf(next)) as WritableNoteField[]).filter((field) => !wasConflicting[field] || wasConflicting[field].theirs !== next.serverValues[field]);
  const versionOnly = note.version > state.noteVersion && !options.versionMayBeOurs;
  const becameReadOnly = readOnlyReasonOf(state) === null && readOnlyReasonOf(next) !== null;
  if (!options.notify || !hadDirty || becameReadOnly || (updatedFields.length === 0 && conflictFields.length === 0 && !versionOnly)) return next;
  const earlier = state.remoteChange ?? { updatedFields: [], conflictFields: [] };
  return {
    ...next,
    remoteChange: {
      updatedFields: WRITABLE_NOTE_FIELDS.filter((field) => earlier.updatedFields.includes(field) || updatedFields.includes(field)),
      conflictFields: WRITABLE_NOTE_FIELDS.filter((field) => earlier.conflictFields.includes(field) || conflictFields.includes(field)),
    },
  };
}

const sameDraft = (a: EditorState, b: EditorState) =>
  WRITABLE_NOTE_FIELDS.every((field) => {
    const before = a.fields[field];
    const after = b.fields[field];
    const wasDirty = before.value !== before.baseline;
    const isDirtyNow = after.value !== after.baseline;
    return wasDirty === isDirtyNow && (!isDirtyNow || (before.value === after.value && before.baseline === after.baseline));
  });

const userChange = (state: EditorState): EditorState => ({ ...state, changeRevision: state.changeRevision + 1 });

function step(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case "edited": {
      if (!canTypeIn(state) || state.fields[action.field].value === action.value) return state;
      // Typing the note's own text back (or the EHR's text in a conflict) leaves nothing to save.
      const baseline = action.value === state.serverValues[action.field] ? action.value : state.fields[action.field].baseline;
      return userChange({ ...state, fields: { ...state.fields, [action.field]: { baseline, value: action.value } } });
    }
    case "noteRead": {
      const own = state.save.kind === "saving" ? state.save.sent : {};
      return mergeServer(state, action.note, { own, versionMayBeOurs: state.save.kind === "saving", notify: true });
    }
    case "saveStarted":
      return { ...state, save: { kind: "saving", sent: action.sent } };
    case "saveSucceeded": {
      const sent = state.save.kind === "saving" ? state.save.sent : {};
      // The service holds what was sent: that is the new baseline; text typed since stays dirty against it.
      const fields = { ...state.fields };
      for (const field of WRITABLE_NOTE_FIELDS) {
        const sentValue = sent[field];
        if (sentValue === undefined) continue;
        const confirmed = action.note.values[field];
        fields[field] = { baseline: confirmed, value: fields[field].value === sentValue ? confirmed : fields[field].value };
      }
      const saved: EditorState = { ...state, fields, save: { kind: "saved", atMs: action.atMs }, lastSavedAtMs: action.atMs };
      // A read newer than this answer was seen already: keep it (mergeServer ignores older versions).
      const note = action.note.version < state.noteVersion ? { values: state.serverValues, version: state.noteVersion, status: state.noteStatus } : action.note;
      return mergeServer(saved, note, { own: sent, versionMayBeOurs: true, notify: true });
    }
    case "saveFailed":
      return { ...state, save: { kind: "failed", failure: action.failure } };
    case "saveConflict": {
      const { details } = action;
      const answered: EditorState = { ...state, save: { kind: "idle" }, signedAnswer: state.signedAnswer || details.reason === "note_signed" };
      const current = details.noteVersion >= state.noteVersion ? { values: details.current, version: details.noteVersion, status: details.noteStatus } : { values: state.serverValues, version: state.noteVersion, status: state.noteStatus };
      return mergeServer(answered, current, { own: {}, versionMayBeOurs: true, notify: false });
    }
    case "conflictResolved": {
      const conflict = conflictsOf(state)[action.field];
      if (!conflict) return state;
      const fieldState = action.choice === "mine" ? { baseline: conflict.theirs, value: conflict.mine } : { baseline: conflict.theirs, value: conflict.theirs };
      const next = userChange({ ...state, fields: { ...state.fields, [action.field]: fieldState } });
      const remaining = next.remoteChange ? next.remoteChange.conflictFields.filter((field) => field !== action.field) : [];
      return next.remoteChange ? { ...next, remoteChange: { ...next.remoteChange, conflictFields: remaining } } : next;
    }
    case "draftRestored": {
      const offer = draftOfferOf(state);
      if (!offer || !state.draftOffer) return { ...state, draftOffer: null };
      const fields = { ...state.fields };
      for (const row of offer.rows) {
        // The draft's baseline is kept: if the note moved on since, the field is a conflict to decide, never a silent overwrite.
        fields[row.field] = { baseline: state.draftOffer.baseline[row.field] ?? row.noteText, value: row.draftText };
      }
      return userChange({ ...state, fields, draftOffer: null });
    }
    case "draftDiscarded":
      return { ...state, draftOffer: null };
    case "remoteChangeDismissed":
      return { ...state, remoteChange: null };
    case "permissionChanged":
      return state.cannotEditReason === action.cannotEditReason ? state : { ...state, cannotEditReason: action.cannotEditReason };
    case "draftStored":
      return {
        ...state,
        draftStore:
          action.where === "bff"
            ? { where: "bff", revision: action.revision, failures: 0, lastFailure: null, held: action.stored }
            : { ...state.draftStore, where: "session", revision: action.revision, failures: state.draftStore.failures + 1, lastFailure: action.cause },
        save: action.where === "session" ? saveLearningWhyTandemRefuses(state.save, action.cause) : state.save,
      };
    case "draftSyncFailed":
      return { ...state, draftStore: { ...state.draftStore, failures: state.draftStore.failures + 1, lastFailure: action.cause }, save: saveLearningWhyTandemRefuses(state.save, action.cause) };
    case "draftCleared":
      return needsDraftRelease(state) ? { ...state, draftStore: { where: "none", revision: -1, failures: 0, lastFailure: null, held: {} } } : state;
  }
}

/**
 * A save waiting for Tandem's server to answer again, once the draft's later try finds it answering but refusing
 * because Tandem is not active: the save now waits for Tandem to be active, and says so (not "not answering").
 */
function saveLearningWhyTandemRefuses(save: SavePhase, cause: DraftSyncFailure): SavePhase {
  if (cause !== "inactive" || save.kind !== "failed" || save.failure.kind !== "system") return save;
  const { reason } = save.failure;
  return reason === "unreached" || reason === "restarting" ? { ...save, failure: { ...save.failure, reason: "inactive" } } : save;
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  const next = step(state, action);
  return next === state || sameDraft(state, next) ? next : { ...next, draftRevision: state.draftRevision + 1 };
}
