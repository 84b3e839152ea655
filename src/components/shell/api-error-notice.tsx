import { APP_ERROR_CODES } from "../../../contract/app-api/errors.ts";
import { ApiError } from "../../api/bff-client.ts";
import { Button } from "../ui/button.tsx";
import { Notice } from "../ui/notice.tsx";

// What happened and what to try, for every error the BFF can answer; never a
// stack trace or raw JSON.

export function describeApiError(error: unknown): { title: string; detail: string; canRetry: boolean } {
  if (!(error instanceof ApiError)) {
    return { title: "Tandem could not reach its server", detail: "Check the connection, then try again.", canRetry: true };
  }
  const { code, message, retry_after_seconds: retryAfter, missing_scope: missingScope } = error.body;
  switch (code) {
    case APP_ERROR_CODES.rateLimited:
      return { title: "The clinic's data service is busy", detail: `Try again ${retryAfter ? `in ${retryAfter} second${retryAfter === 1 ? "" : "s"}` : "in a moment"}.`, canRetry: true };
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
    case "server_unresponsive":
    case "unexpected_integration_error":
    case APP_ERROR_CODES.upstreamUnavailable:
      return { title: "The EHR did not answer", detail: "Nothing was changed. Try again in a moment.", canRetry: true };
    default:
      return { title: "Something went wrong", detail: `${message}${error.body.trace_id ? ` (reference ${error.body.trace_id})` : ""}`, canRetry: error.status >= 500 };
  }
}

export function ApiErrorNotice({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { title, detail, canRetry } = describeApiError(error);
  return (
    <Notice tone="error" title={title} actions={canRetry && onRetry ? <Button variant="secondary" onClick={onRetry}>Try again</Button> : undefined}>
      {detail}
    </Notice>
  );
}
