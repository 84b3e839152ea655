import { APP_ERROR_CODES } from "#contract/app-api/errors.ts";
import { PATIENT_CHANGED_CODE } from "#contract/app-api/slots.ts";
import { ApiError } from "#src/api/bff-client.ts";
import { failingSystemOf, isInstallationInactive } from "#src/api/failing-system.ts";
import { clearsWhenTandemAnswers, useBffAnsweredAgain } from "#src/api/use-bff-answered-again.ts";
import { formatRetryWait } from "#src/lib/time-format.ts";
import { useSecondsLeft } from "#src/lib/use-now.ts";
import { Button } from "../ui/button.tsx";
import { Notice } from "../ui/notice.tsx";

// What happened and what to try, for every error the BFF can answer; never a
// stack trace or raw JSON. A failure names the system that failed (DESIGN.md
// "Rules"): Tandem's server, the clinic data service, or the EHR behind it
// (src/api/failing-system.ts). Only a failed write says "Nothing was
// changed", and only where that is known: a read changes nothing whatever
// happens, and saying so would only alarm.

/** Whether the failed call was a read or a write: only a write's failure says nothing was changed. */
export type CallKind = "read" | "write";

export interface ApiErrorDescription {
  title: string;
  detail: string;
  canRetry: boolean;
}

/** The text as a sentence: with a full stop unless it ends in one already. */
const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

export function describeApiError(error: unknown, kind: CallKind = "read"): ApiErrorDescription {
  if (!(error instanceof ApiError)) {
    return { title: "Tandem could not reach its server", detail: "It may be restarting, or the network may be down. Try again in a moment.", canRetry: true };
  }
  const { code, message, retry_after_seconds: retryAfter, missing_scope: missingScope } = error.body;
  const reference = error.body.trace_id ? ` (reference ${error.body.trace_id})` : "";
  const nothingChanged = kind === "write" ? "Nothing was changed. " : "";
  switch (code) {
    case APP_ERROR_CODES.rateLimited:
      return { title: "The clinic data service is busy", detail: `Try again ${formatRetryWait(retryAfter)}.`, canRetry: true };
    case APP_ERROR_CODES.installationInactive:
      return { title: "Tandem is not active for this organization", detail: `${message}.`, canRetry: false };
    case APP_ERROR_CODES.scopeNotGranted:
      return { title: "This organization has not granted Tandem this access", detail: `Missing permission: ${missingScope ?? "unknown"}. An administrator can grant it in the marketplace.`, canRetry: false };
    case APP_ERROR_CODES.invalidToken:
    case APP_ERROR_CODES.tokenReplayed:
      return { title: "Your EHR session has expired", detail: "Reopen Tandem from the EHR, or try again to ask the EHR for a new session.", canRetry: true };
    case "forbidden":
      return { title: "The clinic's data service refused this", detail: `${message}. If permissions were just changed, try again in a minute.`, canRetry: true };
    case APP_ERROR_CODES.roleForbidden:
      return { title: "Your role does not allow this", detail: message, canRetry: false };
    case APP_ERROR_CODES.notReady:
      // A Tandem process starting or shutting down (a deploy): the next try goes to another one.
      return { title: "Tandem's server is restarting", detail: `${nothingChanged}Try again in a moment.`, canRetry: true };
    case APP_ERROR_CODES.storeUnavailable:
      // The BFF's message says what became of a write (a hold released, a task created in the EHR).
      return { title: "Tandem's server is having trouble", detail: sentence(message), canRetry: true };
    case PATIENT_CHANGED_CODE:
      // A hold asked for the patient open when the slot was chosen, after the EHR switched to another.
      return { title: "The patient open in the EHR changed", detail: "Try again to hold this slot for the patient open now.", canRetry: true };
    case APP_ERROR_CODES.searchTooLarge:
      return { title: "This search is too large", detail: "Choose fewer facilities or fewer days, then search again.", canRetry: false };
    case APP_ERROR_CODES.upstreamTooLarge:
      return {
        title: "The clinic data service answered more than Tandem reads",
        detail: `Nothing was shown. Ask for less if you can; if it keeps happening, quote reference ${error.body.trace_id} to support.`,
        canRetry: false,
      };
    case "server_unresponsive":
    case "unexpected_integration_error":
      return { title: "The EHR did not answer", detail: `${nothingChanged}Try again in a moment.`, canRetry: true };
    case APP_ERROR_CODES.upstreamUnavailable:
      return { title: "The clinic data service did not answer", detail: `${nothingChanged}Try again in a moment.`, canRetry: true };
    case "upstream_timeout":
      // A write was sent and may have been carried out after Tandem stopped waiting.
      return { title: "The clinic data service did not answer in time", detail: kind === "write" ? "It may have been done already: check before trying again." : "Try again in a moment.", canRetry: true };
  }
  switch (failingSystemOf(error)) {
    case "tandem":
      return { title: "Tandem's server is having trouble", detail: error.body.trace_id ? `Try again in a moment; if it keeps happening, quote reference ${error.body.trace_id}.` : "Try again in a moment.", canRetry: true };
    case "service":
      return { title: "The clinic data service is having trouble", detail: `${sentence(message)} Try again in a moment${reference}.`, canRetry: true };
    case "ehr":
      return { title: "The EHR did not answer", detail: `${nothingChanged}Try again in a moment.`, canRetry: true };
    case null:
      return { title: "Something went wrong", detail: `${message}${reference}`, canRetry: error.status >= 500 };
  }
}

/** describeApiError on screen: with `waitSecondsLeft`, a rate limit's wait counting down once a second (null without one). */
export interface LiveApiErrorDescription extends ApiErrorDescription {
  waitSecondsLeft: number | null;
}

/**
 * describeApiError for a notice left on screen: a rate limit's wait counts down in its detail ("Try again in 3
 * seconds.", then "You can try again now."), so the notice never states a wait long over.
 */
export function useApiErrorDescription(error: unknown, kind: CallKind = "read"): LiveApiErrorDescription {
  const described = describeApiError(error, kind);
  const waitSecondsLeft = useRateLimitWaitLeft(error);
  if (waitSecondsLeft === null) return { ...described, waitSecondsLeft };
  const detail = waitSecondsLeft > 0 ? `Try again ${formatRetryWait(waitSecondsLeft)}.` : "You can try again now.";
  return { ...described, detail, waitSecondsLeft };
}

/** Whole seconds left of a rate limit's wait (`retry_after_seconds` of a `rate_limited` failure), counting down once a second from when the failure arrived; null for any other failure. */
export function useRateLimitWaitLeft(error: unknown): number | null {
  const retryAfter = error instanceof ApiError && error.body.code === APP_ERROR_CODES.rateLimited ? (error.body.retry_after_seconds ?? null) : null;
  return useSecondsLeft(error, retryAfter);
}

/**
 * What a failure that Tandem's server answering again clears (`clearsWhenTandemAnswers`) says once it answers: no
 * longer that it cannot be reached, or that Tandem is not active.
 */
export function answeredAgainText(error: unknown): { title: string; detail: string } {
  return { title: isInstallationInactive(error) ? "Tandem is active again" : "Tandem's server is answering again", detail: "You can try again now." };
}

/**
 * `lead`: what failed, said before what to do ("Your holds could not be read.", "Could not hold 10:00 AM…"), where the
 * title alone names only the system. `onDismiss` puts a Dismiss beside Try again, so a notice the user may put away
 * stays one box.
 */
export function ApiErrorNotice({ error, onRetry, onDismiss, kind = "read", lead }: { error: unknown; onRetry?: () => void; onDismiss?: () => void; kind?: CallKind; lead?: string }) {
  const serverBack = useBffAnsweredAgain(clearsWhenTandemAnswers(error) ? error : null);
  const described = useApiErrorDescription(error, kind);
  const { title, detail } = serverBack ? answeredAgainText(error) : described;
  const canRetry = described.canRetry || serverBack;
  const isWaiting = described.waitSecondsLeft !== null && described.waitSecondsLeft > 0;
  const retry = canRetry && onRetry ? (
    <Button variant="secondary" onClick={onRetry} disabled={isWaiting}>
      Try again
    </Button>
  ) : null;
  const dismiss = onDismiss ? (
    <Button variant="ghost" onClick={onDismiss}>
      Dismiss
    </Button>
  ) : null;
  return (
    <Notice
      tone={serverBack ? "warning" : "error"}
      title={title}
      actions={
        retry || dismiss ? (
          <>
            {retry}
            {dismiss}
          </>
        ) : undefined
      }
    >
      {lead === undefined ? null : <>{lead} </>}
      {described.waitSecondsLeft === null ? detail : <span data-testid="retry-countdown">{detail}</span>}
    </Notice>
  );
}
