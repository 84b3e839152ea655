import * as z from "zod/mini";
import { MAX_TASK_ASSIGNEES, MAX_TASK_DESCRIPTION_LENGTH, taskCreateRequest, type TaskCreateRequest } from "#contract/app-api/note.ts";
import type { PickerProvider } from "#contract/app-api/session.ts";
import type { Task } from "#contract/clinic-api/note.ts";
import { ApiError } from "#src/api/bff-client.ts";
import type { PickerOption } from "#src/components/ui/multi-select-picker.tsx";
import { failingSystemOf, isInstallationInactive } from "#src/api/failing-system.ts";
import { noteConflictOf, unknownWriteOf } from "#src/api/note-queries.ts";
import { APP_ERROR_CODES } from "#contract/app-api/errors.ts";
import { idKey } from "#contract/ids.ts";
import { formatDayAndTime, formatNumber, formatRetryWait, usableZone, type TimeDisplay } from "#src/lib/time-format.ts";
import { parseNoteInstant } from "../reading/note-format.ts";
import { unknownOutcomeLead } from "../unknown-outcome.ts";
import { personIdKey, providerName, UNNAMED_EHR_USER, UNNAMED_EHR_USER_LABEL, type PeopleDirectory } from "../reading/people.ts";

// The task panel's logic, kept out of the component so it is tested: the
// form's checks and the request it sends, the words for task values, and
// what a failed create means for the user.

/** The create form while the user edits it. The acting provider is not here: the BFF takes it from the host token. */
export interface TaskFormDraft {
  description: string;
  assigneeIds: string[];
}

export const EMPTY_TASK_DRAFT: TaskFormDraft = { description: "", assigneeIds: [] };

/** Something is typed or chosen in the form and not yet sent: a reload would lose it. */
export const hasTaskDraft = (draft: TaskFormDraft): boolean => draft.description.trim() !== "" || draft.assigneeIds.length > 0;

export type TaskFormField = "description" | "assigneeIds";
export type TaskFormErrors = Partial<Record<TaskFormField, string>>;

/** The order fields appear in the form: focus goes to the first invalid one. */
export const TASK_FORM_FIELD_ORDER: readonly TaskFormField[] = ["description", "assigneeIds"];

const count = (value: number) => formatNumber(value);

/** Ids in the order chosen, each provider once (ids compare in either form). */
function uniqueIds(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  const unique: string[] = [];
  for (const id of ids) {
    const key = idKey(id);
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(id);
  }
  return unique;
}

/** Checks the draft the way the BFF will and names each problem at its field; gives the request when it is valid. */
export function validateTaskForm(draft: TaskFormDraft): { request: TaskCreateRequest; errors: null } | { request: null; errors: TaskFormErrors } {
  const errors: TaskFormErrors = {};
  const notes = draft.description.trim();
  if (notes === "") errors.description = "Enter a task description.";
  else if (notes.length > MAX_TASK_DESCRIPTION_LENGTH)
    errors.description = `The description is ${count(notes.length)} characters; the limit is ${count(MAX_TASK_DESCRIPTION_LENGTH)}. Shorten it by ${count(notes.length - MAX_TASK_DESCRIPTION_LENGTH)}.`;
  const assigneeIds = uniqueIds(draft.assigneeIds);
  if (assigneeIds.length === 0) errors.assigneeIds = "Choose at least one provider to assign the task to.";
  else if (assigneeIds.length > MAX_TASK_ASSIGNEES) errors.assigneeIds = `Choose at most ${MAX_TASK_ASSIGNEES} providers (${assigneeIds.length} chosen).`;
  if (Object.keys(errors).length > 0) return { request: null, errors };
  const request = buildTaskRequest(notes, assigneeIds);
  // The contract's own check, for anything the messages above do not cover (an id of the wrong form).
  if (!z.safeParse(taskCreateRequest, request).success) return { request: null, errors: { assigneeIds: "One of the chosen providers has an id Tandem cannot use. Choose the providers again." } };
  return { request, errors: null };
}

/** Exactly the two fields the BFF takes; never a `providerId` (the acting provider is the token's). */
export function buildTaskRequest(notes: string, assigneeIds: readonly string[]): TaskCreateRequest {
  return { notes: notes.trim(), assigneeIds: [...assigneeIds] };
}

/** The first field with a problem, in form order. */
export function firstInvalidField(errors: TaskFormErrors): TaskFormField | null {
  return TASK_FORM_FIELD_ORDER.find((field) => errors[field] !== undefined) ?? null;
}

/** "120 of 4,000 characters" under the description. */
export function descriptionLengthText(description: string): string {
  return `${count(description.trim().length)} of ${count(MAX_TASK_DESCRIPTION_LENGTH)} characters`;
}

/** The picker's options: each provider by display name, the title (or roles) as the second line, sorted by name. */
export function assigneeOptions(providers: readonly PickerProvider[]): PickerOption[] {
  return providers
    .map((provider): PickerOption => {
      const detail = provider.title.trim() || provider.roles.join(", ");
      const label = provider.displayName.trim() || `${provider.firstName} ${provider.lastName}`.trim() || provider.id;
      return detail ? { value: provider.id, label, detail } : { value: provider.id, label };
    })
    .sort((a, b) => a.label.localeCompare(b.label, "en"));
}

/** "not_started" → "Not started"; any code made readable rather than hidden. */
export function readableCode(code: string): string {
  const words = code.trim().replace(/[_-]+/g, " ").replace(/\s+/g, " ").toLowerCase();
  if (words === "") return "Unknown";
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const STATUS_TEXT: Record<string, string> = {
  not_started: "Not started",
  in_progress: "In progress",
  completed: "Completed",
  complete: "Completed",
  done: "Done",
  cancelled: "Cancelled",
  canceled: "Cancelled",
  closed: "Closed",
};

/** The task's status in words; a value the seeds do not show is still shown, made readable. */
export function taskStatusText(status: string): string {
  return STATUS_TEXT[status.trim().toLowerCase()] ?? readableCode(status);
}

export type SyncTone = "synced" | "pending" | "failed" | "unknown";

const SYNC: Record<string, { text: string; tone: SyncTone }> = {
  synced: { text: "Synced to the EHR", tone: "synced" },
  pending: { text: "Waiting to sync to the EHR", tone: "pending" },
  pending_sync: { text: "Waiting to sync to the EHR", tone: "pending" },
  syncing: { text: "Syncing to the EHR", tone: "pending" },
  failed: { text: "Not synced: the EHR sync failed", tone: "failed" },
  sync_failed: { text: "Not synced: the EHR sync failed", tone: "failed" },
  error: { text: "Not synced: the EHR sync failed", tone: "failed" },
};

/** The task's sync status in words, and how it reads (only `synced` is shown by the seeds; others are assumed or made readable). */
export function syncStatusOf(syncStatus: string): { text: string; tone: SyncTone } {
  return SYNC[syncStatus.trim().toLowerCase()] ?? { text: `EHR sync: ${readableCode(syncStatus).toLowerCase()}`, tone: "unknown" };
}

export function syncStatusText(syncStatus: string): string {
  return syncStatusOf(syncStatus).text;
}

/**
 * Terminal-looking statuses. The seeds show only `not_started`, so the task
 * status space is open: a task counts as open unless its status is one of
 * these, so an unknown status never hides a task that may still need doing.
 */
const CLOSED_STATUSES = new Set(["completed", "complete", "done", "cancelled", "canceled", "closed", "resolved", "archived"]);

export function isTaskOpen(task: Pick<Task, "status">): boolean {
  return !CLOSED_STATUSES.has(task.status.trim().toLowerCase());
}

/**
 * The assignees' names, each provider once, in the task's order: the names
 * the task gives them, else what the note calls them, else their username.
 * Anyone still unnamed is counted as "an EHR user", never shown by id.
 */
export function assigneeNames(task: Pick<Task, "assignedProviders">, people: PeopleDirectory): string[] {
  const seen = new Set<string>();
  const names: string[] = [];
  let unnamed = 0;
  for (const provider of task.assignedProviders) {
    const key = personIdKey(provider.id);
    if (key !== null && seen.has(key)) continue;
    if (key !== null) seen.add(key);
    const name = providerName(provider) ?? people.nameOf(provider.id) ?? (provider.username.trim() || null);
    if (name === null) unnamed += 1;
    else names.push(name);
  }
  if (unnamed === 1) names.push(UNNAMED_EHR_USER);
  if (unnamed > 1) names.push(`${unnamed} ${names.length > 0 ? "other " : ""}EHR users`);
  return names;
}

/** "Dr Brooks, Dr Okafor", or a plain statement when the service gave none. */
export function assigneeSummary(task: Pick<Task, "assignedProviders">, people: PeopleDirectory): string {
  const names = assigneeNames(task, people);
  if (names.length === 0) return "No assignee recorded";
  // Only the "an EHR user" phrase can open the list in lower case; a name is shown as written.
  return names[0] === UNNAMED_EHR_USER ? [UNNAMED_EHR_USER_LABEL, ...names.slice(1)].join(", ") : names.join(", ");
}

/** "20 Nov 2026, 09:05 EST" (en-GB, a user outside New York) on the facility's clock; the text itself when it cannot be read. */
export function formatTaskTime(text: string, display: TimeDisplay): { label: string; iso: string | null } {
  const ms = parseNoteInstant(text);
  if (ms === null) return { label: text, iso: null };
  const label = formatDayAndTime(ms, { ...display, zone: usableZone(display.zone) }, { style: "short", weekday: false, year: true });
  return { label, iso: new Date(ms).toISOString() };
}

/** Open tasks first, then the newest first within each group. */
export function sortTasksForDisplay(tasks: readonly Task[]): Task[] {
  return [...tasks].sort((a, b) => {
    const open = Number(isTaskOpen(b)) - Number(isTaskOpen(a));
    if (open !== 0) return open;
    return (parseNoteInstant(b.createdAt) ?? 0) - (parseNoteInstant(a.createdAt) ?? 0);
  });
}

export type TaskCreateFailure =
  /** The clinic data service refused it before acting (busy) or was not reached: nothing was created; Retry. */
  | { kind: "ehr"; title: string; detail: string }
  /** Tandem's server was not reached, its answer was lost, or it failed after sending: the task may or may not exist. */
  | { kind: "unreached"; title: string; detail: string }
  /** The BFF refused the request (400): its message names the field. */
  | { kind: "invalid"; title: string; detail: string }
  /** The note was signed in the EHR. */
  | { kind: "signed"; title: string; detail: string }
  /** Sent, and no answer came (or Tandem could not keep it): the EHR may have created it; listed as unconfirmed, never retried by itself. */
  | { kind: "unknown"; title: string; detail: string }
  /** A task like one the EHR may have created already: sent again only when the user chooses, warned it may duplicate. */
  | { kind: "duplicate"; title: string; detail: string }
  /** Tandem not active for the organization (uninstalled, suspended): refused before anything was sent; Retry once it is active again. */
  | { kind: "inactive"; title: string; detail: string }
  /** Anything else: described by `describeApiError`. */
  | { kind: "other" };

export const TASK_UNKNOWN_TITLE = "The EHR may have created the task.";
export const TASK_DUPLICATE_TITLE = "This task may be in the EHR already.";
export const TASK_DUPLICATE_DETAIL =
  "Tandem sent the same task before and got no answer. Check the note's tasks in the EHR, and send it again only if it is not there: if the EHR has it, it will have it twice. Your text is kept.";
/** The question before a task whose outcome is unknown is sent again. */
export const TASK_RESEND_QUESTION = "Send this task to the EHR again? If the EHR created it the first time, it will have it twice.";

/** "Sent 17 Nov 2026, 09:05 EST" on the facility's clock, for a task whose outcome is unknown. */
export function formatSentAt(iso: string, display: TimeDisplay): { label: string; iso: string | null } {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return { label: iso, iso: null };
  return { label: formatDayAndTime(ms, { ...display, zone: usableZone(display.zone) }, { style: "short", weekday: false, year: true }), iso: new Date(ms).toISOString() };
}

export const TASK_EHR_FAILED_DETAIL = "The EHR reported a failure after Tandem sent the task. Check the note's tasks in the EHR before sending it again. Your text is kept.";
/** Only for a task the service refused before acting, or that never left Tandem's server. */
export const TASK_NOT_CREATED_DETAIL = "Nothing was created. Your text is kept: try again.";

/** What a failed create means, in words; the form keeps every field in every case. */
export function taskCreateFailure(error: unknown, waitLeft: number | null = null): TaskCreateFailure {
  if (!(error instanceof ApiError)) {
    // The request may have reached the BFF before the connection failed, so "nothing was created" is not known.
    return { kind: "unreached", title: "Tandem could not reach its server.", detail: "The task may not have been created: check the note's tasks in the EHR before trying again. Your text is kept." };
  }
  if (isInstallationInactive(error)) {
    return { kind: "inactive", title: "Tandem is not active for this organization.", detail: "Nothing was created. Your text is kept: create the task once an administrator reactivates Tandem." };
  }
  const unknownWrite = unknownWriteOf(error);
  if (unknownWrite?.code === "possible_duplicate") return { kind: "duplicate", title: TASK_DUPLICATE_TITLE, detail: TASK_DUPLICATE_DETAIL };
  if (unknownWrite?.code === "outcome_unknown") {
    return { kind: "unknown", title: TASK_UNKNOWN_TITLE, detail: `${unknownOutcomeLead(error)} Check the note's tasks in the EHR before sending it again: Tandem lists it as not confirmed. Your text is kept.` };
  }
  if (error.status === 409 || error.body.code === "conflict") {
    const conflict = noteConflictOf(error);
    if (!conflict || conflict.reason === "note_signed") return { kind: "signed", title: "This note was signed in the EHR.", detail: "Tasks can no longer be created on it from Tandem. Your text is kept, so you can copy it." };
  }
  if (error.status === 400) return { kind: "invalid", title: "The task was not created.", detail: error.body.message };
  // The BFF sent the task and the EHR did not answer in time: it may have been created there, so "nothing was created" would invite a duplicate.
  if (error.body.code === "upstream_timeout") return { kind: "unreached", title: "The EHR did not answer in time.", detail: "The task may have been created there: check the note's tasks in the EHR before trying again. Your text is kept." };
  const wait = waitLeft ?? error.body.retry_after_seconds;
  const notCreated = wait === undefined ? TASK_NOT_CREATED_DETAIL : `Nothing was created. Your text is kept: try again ${formatRetryWait(wait)}.`;
  switch (failingSystemOf(error)) {
    case "tandem":
      // Its store may have failed after the EHR created the task (the BFF's message says so): never "nothing was created".
      return { kind: "unreached", title: "Tandem's server is having trouble.", detail: "The task may have been created: check the note's tasks in the EHR before trying again. Your text is kept." };
    case "service":
      // Busy (refused before acting) or not reached (never sent): nothing was created. Any other failure came after sending.
      if (error.body.code === APP_ERROR_CODES.rateLimited) return { kind: "ehr", title: "The clinic data service is busy.", detail: notCreated };
      if (error.body.code === APP_ERROR_CODES.upstreamUnavailable) return { kind: "ehr", title: "The clinic data service did not answer.", detail: notCreated };
      return { kind: "unknown", title: TASK_UNKNOWN_TITLE, detail: "The clinic data service failed after Tandem sent the task. Check the note's tasks in the EHR before sending it again. Your text is kept." };
    case "ehr":
      // The EHR failed after the task was sent to it: the push may have landed, so never "nothing was created".
      return { kind: "unknown", title: TASK_UNKNOWN_TITLE, detail: TASK_EHR_FAILED_DETAIL };
    case null:
      // The service answers 502 on a failed push to the EHR without naming a code (seed 001 "Errors").
      return error.status === 502 ? { kind: "unknown", title: TASK_UNKNOWN_TITLE, detail: TASK_EHR_FAILED_DETAIL } : { kind: "other" };
  }
}
