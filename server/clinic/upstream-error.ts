// Every failure of a call to the service, as the BFF's routes answer it: the
// code (seed 001 "Errors" codes as they are, and the client's own), the BFF's
// status, and the service's trace id. Built only from redacted text: the data
// key is never in it (DESIGN.md).

interface UpstreamErrorInit {
  status: number;
  code: string;
  message: string;
  upstreamTraceId?: string | null;
  /** Null when the service did not answer. */
  upstreamStatus?: number | null;
  retryAfterSeconds?: number;
  /** The request may have reached the service with no answer back (reset, timeout): a write may have been carried out. */
  answerLost?: boolean;
}

export class UpstreamError extends Error {
  override readonly name = "UpstreamError";
  /** The status the BFF answers with. */
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

  /** The BFF's error body (DESIGN.md "The BFF's API"). */
  toJSON(): { code: string; message: string; trace_id: string | null } {
    return { code: this.code, message: this.message, trace_id: this.upstreamTraceId };
  }
}

export function rateLimitedError(retryAfterSeconds: number, message: string, upstream?: { status: number; traceId: string | null }): UpstreamError {
  return new UpstreamError({ status: 503, code: "rate_limited", message, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)), upstreamTraceId: upstream?.traceId ?? null, upstreamStatus: upstream?.status ?? null });
}
