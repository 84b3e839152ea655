import { UpstreamError } from "./upstream-error.ts";

// What a failed write means for it (DESIGN.md "Nothing typed is lost and
// nothing is done twice"): `refused` only on a definite refusal before acting
// (a 4xx, 429 included) or when it never left the BFF; `unknown` whenever the
// service may have acted (answer lost, a 5xx after it was sent, seed 001's
// 502 on a failed EHR push included, or an answer that could not be read).

/**
 * How long one write of the BFF's can be in flight, from its intent to the
 * last moment the service can receive it: the limiter's queue (2 s), the
 * attempt's timeout (10 s), and two retries after a 429 (each at most a 5 s
 * Retry-After and a 10 s attempt), 42 s, rounded up. A `pending` intent older
 * than this was left by a process that died mid-call: it reads as unknown.
 */
export const WRITE_IN_FLIGHT_MS = 60_000;

/** A recorded write whose outcome is not known at `now`: settled `unknown`, or still `pending` past {@link WRITE_IN_FLIGHT_MS}. */
export function readsAsUnknown(intent: { outcome: string; createdAt: number }, now: number): boolean {
  return intent.outcome === "unknown" || (intent.outcome === "pending" && now - intent.createdAt >= WRITE_IN_FLIGHT_MS);
}

export function outcomeOfFailedWrite(error: unknown): "refused" | "unknown" {
  // A fault of the BFF's own may have followed a write.
  if (!(error instanceof UpstreamError)) return "unknown";
  if (error.upstreamStatus !== null) return error.upstreamStatus >= 400 && error.upstreamStatus < 500 ? "refused" : "unknown";
  return error.answerLost ? "unknown" : "refused";
}

/** Which system left the outcome unknown, for the user's words (src/api/failing-system.ts). */
export function systemOfUnknownOutcome(error: unknown): "service" | "ehr" | "tandem" {
  if (!(error instanceof UpstreamError)) return "tandem";
  if (error.code === "upstream_timeout" || error.code === "server_unresponsive" || error.code === "unexpected_integration_error" || error.upstreamStatus === 502) return "ehr";
  if (error.code === "intake_failed") return "tandem";
  return "service";
}
