import * as z from "zod/mini";

// The BFF's error body (DESIGN.md "The BFF's API"): the spec's
// `{code, message, trace_id}`, plus what helps the SPA say what to do.

/** Loose: some errors carry more (a note conflict's `current`, see note.ts). */
export const appErrorBody = z.looseObject({
  code: z.string(),
  message: z.string(),
  trace_id: z.string(),
  /** The service's trace id, when the error came from it: for support. */
  upstream_trace_id: z.optional(z.string()),
  /** When to try again, in seconds (rate limited; the store unavailable). */
  retry_after_seconds: z.optional(z.number()),
  /** The scope that is missing, when the installation does not grant it. */
  missing_scope: z.optional(z.string()),
  /** `outcome_unknown`: the system whose lost or failed answer left the write's outcome unknown. */
  failed_system: z.optional(z.enum(["tandem", "service", "ehr"])),
  /** `outcome_unknown`, `possible_duplicate`: the write as Tandem recorded it before sending it. */
  intent_id: z.optional(z.string()),
});
export type AppErrorBody = z.infer<typeof appErrorBody>;

/** Codes the BFF adds to the spec's. */
export const APP_ERROR_CODES = {
  /** The host token is missing, malformed, expired or otherwise invalid. */
  invalidToken: "invalid_token",
  /** A write reused a host token (its `jti`). */
  tokenReplayed: "token_replayed",
  /** The organization has no active installation. */
  installationInactive: "installation_inactive",
  /** The installation does not grant a scope the call needs. */
  scopeNotGranted: "scope_not_granted",
  /** A standalone user the service no longer lists as active in the chosen organization. */
  accountInactive: "account_inactive",
  /** The user's role may not do this. */
  roleForbidden: "role_forbidden",
  /** The thing belongs to another user (a slot hold: only the user who held it releases it). */
  notOwner: "not_owner",
  /** The BFF's own store could not answer in time, or could not be reached (503 with `Retry-After`): Tandem's server, not the EHR. */
  storeUnavailable: "store_unavailable",
  /** The upstream answered with something the contract does not allow. */
  contractViolation: "contract_violation",
  rateLimited: "rate_limited",
  /** The clinic data service itself could not be reached, or failed without its error body: the service, not the EHR behind it. */
  upstreamUnavailable: "upstream_unavailable",
  /** A slot search covers more than the BFF reads (`/api/slots`): 400 for a scope past `MAX_SLOT_SEARCH_FACILITY_DAYS`, 422 for an answer past UPSTREAM_MAX_BODY_BYTES; choose fewer facilities or fewer days. */
  searchTooLarge: "search_too_large",
  /** Any other answer of the service past UPSTREAM_MAX_BODY_BYTES: refused unread (502). */
  upstreamTooLarge: "upstream_too_large",
  /** The BFF's intake thread could not take the service's answer in (it failed or did not answer in time): 503, try again. */
  intakeFailed: "intake_failed",
  /** This BFF process is starting or shutting down: try again (a proxy sends the retry to another process). */
  notReady: "not_ready",
  /**
   * A write was sent and its answer lost (reset, timeout, the service or the EHR failing after it was sent,
   * Tandem's store failing after it): the EHR may have carried it out. Never "nothing was saved" (issue 35 item 4).
   */
  outcomeUnknown: "outcome_unknown",
  /** 409: a task like one whose outcome is unknown; sent only with `confirmPossibleDuplicate: true`. */
  possibleDuplicate: "possible_duplicate",
} as const;
