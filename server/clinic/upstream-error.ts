// How every failure of a call to the Clinic Data Service reaches the BFF's
// routes: one error type with the code the route answers with (seed 001
// "Errors" codes kept as they are), a status for the BFF's own answer, and
// the service's trace id for support. Its text never holds the data key
// (DESIGN.md); callers build it only from redacted text.

/** Codes this client adds beside the spec's own (`bad_request`, `forbidden`, `conflict`, …). */
export type ClientErrorCode = "contract_violation" | "upstream_unavailable" | "upstream_timeout" | "rate_limited" | "upstream_too_large" | "intake_failed";

export interface UpstreamErrorInit {
  status: number;
  code: string;
  message: string;
  upstreamTraceId?: string | null;
  /** The HTTP status the service answered, null when it did not answer. */
  upstreamStatus?: number | null;
  retryAfterSeconds?: number;
  /**
   * The request may have reached the service and no answer came back (reset,
   * timeout): a write may have been carried out. False when it never left
   * (connection refused, the client closed) or an answer came.
   */
  answerLost?: boolean;
}

export class UpstreamError extends Error {
  override readonly name = "UpstreamError";
  /** The status the BFF should answer with. */
  readonly status: number;
  readonly code: string;
  readonly upstreamTraceId: string | null;
  readonly upstreamStatus: number | null;
  readonly retryAfterSeconds?: number;
  readonly answerLost: boolean;

  constructor(init: UpstreamErrorInit) {
    super(init.message);
    this.answerLost = init.answerLost ?? false;
    this.status = init.status;
    this.code = init.code;
    this.upstreamTraceId = init.upstreamTraceId ?? null;
    this.upstreamStatus = init.upstreamStatus ?? null;
    if (init.retryAfterSeconds !== undefined) this.retryAfterSeconds = init.retryAfterSeconds;
  }

  /** The BFF's error body shape (DESIGN.md "The BFF's API": `{code, message, trace_id}`). */
  toJSON(): { code: string; message: string; trace_id: string | null } {
    return { code: this.code, message: this.message, trace_id: this.upstreamTraceId };
  }
}

/**
 * The BFF's status for a service error. The service's status is kept, except
 * where passing it on would mislead the SPA: a 401 is about the BFF's own data
 * key (not the user's host token), a 500 is the service's fault (a BFF 500
 * would read as a BFF bug). (A 429 never gets here: upstream-send.ts waits it
 * out or fails with `rate_limited`.)
 */
export function bffStatusFor(upstreamStatus: number): number {
  if (upstreamStatus === 401) return 502;
  if (upstreamStatus === 500) return 502;
  return upstreamStatus;
}

export function rateLimitedError(retryAfterSeconds: number, message: string, upstream?: { status: number; traceId: string | null }): UpstreamError {
  return new UpstreamError({
    status: 503,
    code: "rate_limited",
    message,
    retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)),
    upstreamTraceId: upstream?.traceId ?? null,
    upstreamStatus: upstream?.status ?? null,
  });
}
