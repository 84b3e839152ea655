import { APP_ERROR_CODES } from "#contract/app-api/errors.ts";
import { UpstreamError } from "../clinic/upstream-error.ts";
import { systemOfUnknownOutcome } from "../clinic/write-outcome.ts";
import { AppError } from "./app-error.ts";

// The one answer to a write whose outcome is unknown (issue 35 item 4): the
// service may have carried it out, so the user is told what it may have done
// and what happens next, never "not saved"; `outcome_unknown`, the system
// that failed (`failed_system`) and the write's intent (`intent_id`).

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
export function outcomeUnknownError(error: unknown, intentId: string, words: UnknownOutcomeWords, extras: AppError["extras"] = {}): AppError {
  const status = error instanceof UpstreamError && (error.status === 502 || error.status === 503 || error.status === 504) ? error.status : error instanceof UpstreamError && error.upstreamStatus !== null ? 502 : 503;
  const trace = error instanceof UpstreamError && error.upstreamTraceId ? { upstream_trace_id: error.upstreamTraceId } : {};
  return new AppError(status, APP_ERROR_CODES.outcomeUnknown, `${leadOf(error)} ${words.mayHave} ${words.next}`, {
    ...trace,
    failed_system: systemOfUnknownOutcome(error),
    intent_id: intentId,
    ...extras,
  });
}
