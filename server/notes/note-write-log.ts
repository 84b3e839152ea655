import { randomUUID } from "node:crypto";
import { APP_ERROR_CODES } from "#contract/app-api/errors.ts";
import { systemOfUnknownOutcome, WRITE_IN_FLIGHT_MS } from "../clinic/write-outcome.ts";
import { UpstreamError } from "../clinic/upstream-error.ts";
import { AppError } from "../http/app-error.ts";
import type { WriteIntent, WriteIntentKind, WriteIntentRepository, WriteOutcome } from "../store/store.ts";

// The note's writes (a task, a note PATCH, an image delete) recorded before
// they are sent and settled from the answer (issue 35 item 4; DESIGN.md
// "Nothing typed is lost and nothing is done twice"), so an answer lost after
// the service may have acted is an outcome of its own, `unknown`, which the
// user sees as "the EHR may have done this" and which a later read settles
// where the service can show it (the note's fields, its images).

export interface NoteWriteLog {
  /** Records the write as `pending` (throws when the store cannot: then nothing is sent); answers its id. */
  begin(intent: { organizationId: string; userId: string; kind: WriteIntentKind; subjectId: string; request: unknown }): Promise<string>;
  /** Settles it; false when it was settled already or the store could not (a `pending` row left behind reads as unknown). */
  settle(organizationId: string, id: string, outcome: Exclude<WriteOutcome, "pending">, resultId?: string | null): Promise<boolean>;
  /** The note's writes of a kind whose outcome is not known: `unknown`, and `pending` ones past {@link WRITE_IN_FLIGHT_MS}. */
  unsettled(organizationId: string, kind: WriteIntentKind, noteId: string): Promise<WriteIntent[]>;
  /** The same, `pending` ones still in flight included. */
  open(organizationId: string, kind: WriteIntentKind, noteId: string): Promise<WriteIntent[]>;
}

export function createNoteWriteLog(intents: WriteIntentRepository, now: () => number, onSettleFailed: (error: unknown, id: string) => void): NoteWriteLog {
  return {
    async begin(intent) {
      const id = randomUUID();
      await intents.record({ ...intent, id, createdAt: now() });
      return id;
    },
    async settle(organizationId, id, outcome, resultId = null) {
      try {
        return await intents.settle(organizationId, id, { outcome, resultId, at: now() });
      } catch (error) {
        onSettleFailed(error, id);
        return false;
      }
    },
    async unsettled(organizationId, kind, noteId) {
      const open = await intents.listUnsettled(organizationId, kind, { subjectId: noteId });
      return open.filter((intent) => intent.outcome === "unknown" || now() - intent.createdAt > WRITE_IN_FLIGHT_MS);
    },
    open: (organizationId, kind, noteId) => intents.listUnsettled(organizationId, kind, { subjectId: noteId }),
  };
}

/** What the user is told a write may have done, and what happens next. */
export interface UnknownOutcomeWords {
  /** "The EHR may have created the task." */
  mayHave: string;
  /** "Check the note's tasks in the EHR before sending it again." */
  next: string;
}

function leadOf(error: unknown): string {
  if (!(error instanceof UpstreamError)) return "Tandem's server failed after the request was sent to the EHR.";
  if (error.code === "upstream_timeout") return "The EHR did not answer in time.";
  if (error.code === "intake_failed") return "Tandem's server could not read the clinic data service's answer.";
  switch (systemOfUnknownOutcome(error)) {
    case "ehr":
      return "The EHR reported a failure after the request reached it.";
    case "service":
      return error.upstreamStatus === null ? "The connection to the clinic data service was lost before its answer came." : "The clinic data service failed after the request reached it.";
    case "tandem":
      return "Tandem's server failed after the request was sent to the EHR.";
  }
}

/**
 * The answer to a write whose outcome is unknown, with the status the
 * failure had (504 a timeout, 502/503 the service's own); never "not saved".
 */
export function outcomeUnknownError(error: unknown, intentId: string, words: UnknownOutcomeWords): AppError {
  const status = error instanceof UpstreamError && (error.status === 502 || error.status === 503 || error.status === 504) ? error.status : error instanceof UpstreamError && error.upstreamStatus !== null ? 502 : 503;
  const trace = error instanceof UpstreamError && error.upstreamTraceId ? { upstream_trace_id: error.upstreamTraceId } : {};
  return new AppError(status, APP_ERROR_CODES.outcomeUnknown, `${leadOf(error)} ${words.mayHave} ${words.next}`, {
    ...trace,
    failed_system: systemOfUnknownOutcome(error),
    intent_id: intentId,
  });
}
