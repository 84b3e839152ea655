import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppErrorBody } from "#contract/app-api/errors.ts";
import { UpstreamError } from "../clinic/upstream-error.ts";
import { StoreUnavailableError } from "../store/store-unavailable.ts";
import { AppError, storeUnavailable } from "./app-error.ts";
import type { AppEnv } from "./app-env.ts";

// Every failure becomes the BFF's error body `{code, message, trace_id}`
// (DESIGN.md "The BFF's API"); nothing renders a stack trace. Upstream errors
// keep the spec's code and carry the service's trace id for support. A store
// that cannot answer is a 503 to try again, not a 500 (DESIGN.md "The BFF stays up").

export function handleAppError(error: Error, c: Context<AppEnv>) {
  const traceId = c.get("traceId");
  const body = (status: number, fields: Omit<AppErrorBody, "trace_id"> & { code: string }, headers: Record<string, string> = {}) => {
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
    c.set("errorCode", fields.code);
    return c.json({ ...fields, trace_id: traceId }, status as 400);
  };
  if (error instanceof StoreUnavailableError) {
    // The reason (SQLSTATE, socket code, timeout) and nothing of the query: its parameters may be a patient's.
    c.get("logger").warn({ storeReason: error.reason }, "the store could not answer");
    const refusal = storeUnavailable();
    return body(refusal.status, { code: refusal.code, message: refusal.message, ...refusal.extras }, refusal.headers);
  }
  if (error instanceof AppError) return body(error.status, { code: error.code, message: error.message, ...error.extras }, error.headers);
  if (error instanceof UpstreamError) {
    c.get("logger").warn({ code: error.code, upstreamStatus: error.upstreamStatus, upstreamTraceId: error.upstreamTraceId }, "upstream call failed");
    return body(
      error.status,
      {
        code: error.code,
        message: error.message,
        ...(error.upstreamTraceId !== null && { upstream_trace_id: error.upstreamTraceId }),
        ...(error.retryAfterSeconds !== undefined && { retry_after_seconds: error.retryAfterSeconds }),
      },
      error.retryAfterSeconds !== undefined ? { "Retry-After": String(error.retryAfterSeconds) } : {},
    );
  }
  if (error instanceof HTTPException) return body(error.status, { code: "bad_request", message: error.message || "bad request" });
  c.get("logger").error({ err: error }, "unexpected error");
  return body(500, { code: "internal_error", message: "Something went wrong in Tandem; try again, and quote the trace id if it persists" });
}
