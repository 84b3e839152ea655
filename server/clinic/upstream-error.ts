// How every failure of a call to the Clinic Data Service reaches the BFF's
// routes: one error type with the code the route answers with (seed 001
// "Errors" codes kept as they are, and the client's own: `rate_limited`,
// `upstream_unavailable`, `upstream_timeout`, `upstream_too_large`, …), a
// status for the BFF's own answer, and the service's trace id for support.
// Its text never holds the data key (DESIGN.md); callers build it only from
// redacted text.

interface UpstreamErrorInit {
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
    this.status = init.status;
    this.code = init.code;
    this.upstreamTraceId = init.upstreamTraceId ?? null;
    this.upstreamStatus = init.upstreamStatus ?? null;
    if (init.retryAfterSeconds !== undefined) this.retryAfterSeconds = init.retryAfterSeconds;
    this.answerLost = init.answerLost ?? false;
  }

  /** The BFF's error body shape (DESIGN.md "The BFF's API": `{code, message, trace_id}`). */
  toJSON(): { code: string; message: string; trace_id: string | null } {
    return { code: this.code, message: this.message, trace_id: this.upstreamTraceId };
  }
}

/**
 * The BFF's status for a service error: the service's, except a 401 (about
 * the BFF's own data key, not the user's host token) and a 500 (the
 * service's fault; a BFF 500 would read as a BFF bug), both 502. A 429 never
 * comes here: upstream-send.ts waits it out or fails with `rate_limited`.
 */
export function bffStatusFor(upstreamStatus: number): number {
  return upstreamStatus === 401 || upstreamStatus === 500 ? 502 : upstreamStatus;
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
