import { APP_ERROR_CODES } from "#contract/app-api/errors.ts";
import { ApiError } from "./bff-client.ts";

// Which of the three systems a failed call met (DESIGN.md "Rules": messages
// name the system that failed: Tandem's server, the clinic data service, or
// the EHR). Each asks something different of the user: Tandem's server
// (its database, a restart, not reached) and the service clear up by
// themselves, so trying again later is the way; the EHR behind the service
// may be down for longer.

export type FailingSystem = "tandem" | "service" | "ehr";

/** The BFF's own failures, and an answer the SPA could not read (a proxy's page with no process behind it). */
const TANDEM_CODES = new Set<string>([APP_ERROR_CODES.storeUnavailable, APP_ERROR_CODES.notReady, "unexpected_response"]);
/** The service saying the EHR behind it failed (seed 001 "Errors"). */
const EHR_CODES = new Set(["server_unresponsive", "unexpected_integration_error"]);
/** The service itself not reached, too slow, busy, or answering outside its contract (server/clinic/upstream-error.ts). */
const SERVICE_CODES = new Set<string>([APP_ERROR_CODES.upstreamUnavailable, "upstream_timeout", APP_ERROR_CODES.rateLimited, APP_ERROR_CODES.contractViolation]);

/** The system that failed, or null when the call was refused (a 4xx: the user or the data, not a system). */
export function failingSystemOf(error: unknown): FailingSystem | null {
  // Not reached, or the connection lost before an answer.
  if (!(error instanceof ApiError)) return "tandem";
  const { code, upstream_trace_id: upstreamTraceId, failed_system: failedSystem } = error.body;
  // A write whose outcome is unknown names the system whose answer was lost or failed.
  if (code === APP_ERROR_CODES.outcomeUnknown && failedSystem !== undefined) return failedSystem;
  if (TANDEM_CODES.has(code)) return "tandem";
  if (EHR_CODES.has(code)) return "ehr";
  if (SERVICE_CODES.has(code)) return "service";
  if (error.status < 500) return null;
  // Another 5xx: the service's own (its 500 `internal_error`, passed on as 502) carries its trace id; Tandem's does not.
  return upstreamTraceId === undefined ? "tandem" : "service";
}

/** Tandem's installation for the organization is not active (uninstalled, suspended): Tandem answered, and takes the work again once it is reinstalled. */
export function isInstallationInactive(error: unknown): boolean {
  return error instanceof ApiError && error.body.code === APP_ERROR_CODES.installationInactive;
}
