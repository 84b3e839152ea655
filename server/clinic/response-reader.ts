import * as z from "zod/mini";
import { errorBody, type clinicApiResponses, type ClinicApiRoute } from "#contract/clinic-api/responses.ts";
import { checkEnvelope, type IntakeResult } from "./answer-intake.ts";
import { readBoundedBody } from "./bounded-body.ts";
import type { SharedRoute } from "./cache-policy.ts";
import { SharedAnswer } from "./shared-answer.ts";
import { UpstreamError } from "./upstream-error.ts";

// Every answer of the service is checked against its contract (the route's
// envelope, `errorBody` otherwise: seed 001 "Errors"). One that does not match
// is a 502 `contract_violation`: never a crash, never unchecked data.

export type ClinicData<R extends ClinicApiRoute> = z.output<(typeof clinicApiResponses)[R]>["data"];

/** What one attempt came to; after a 429 the limiter has what its headers said of when to come back. */
export type ReadOutcome<V> = { kind: "ok"; value: V } | { kind: "rate_limited"; traceId: string | null } | { kind: "error"; error: UpstreamError; retryableRead: boolean };

/** Takes in a 2xx body of a shared route (answer-intake.ts), on this thread or another. */
export type Intake = (route: SharedRoute, body: Uint8Array<ArrayBuffer>) => Promise<IntakeResult>;

interface ReadContext {
  redact: (text: string) => string;
  warn: (obj: object, msg: string) => void;
  maxBodyBytes: number;
}

const TRACE_HEADERS = ["x-trace-id", "x-request-id", "trace-id"];
const traceField = z.object({ trace_id: z.string() });
const utf8Decoder = new TextDecoder();

const headerTraceId = (headers: Headers) => TRACE_HEADERS.map((name) => headers.get(name)).find((value) => value) ?? null;

function contractViolation(route: ClinicApiRoute, status: number, detail: string, traceId: string | null, context: ReadContext): UpstreamError {
  context.warn({ route, upstreamStatus: status, upstreamTraceId: traceId, detail: context.redact(detail) }, "clinic: upstream contract violation");
  const message = `${route}: the Clinic Data Service's answer does not match its contract (${context.redact(detail)})`;
  return new UpstreamError({ status: 502, code: "contract_violation", message, upstreamTraceId: traceId, upstreamStatus: status });
}

/** Reads the body (bounded), and a 2xx one through `take`. */
async function readWith<V>(route: ClinicApiRoute, response: Response, context: ReadContext, take: (bytes: Uint8Array<ArrayBuffer>) => Promise<{ kind: "ok"; value: V } | Exclude<IntakeResult, { kind: "ok" }>>): Promise<ReadOutcome<V>> {
  const { status, headers } = response;
  const body = await readBoundedBody(response, context.maxBodyBytes);
  if (body.kind === "too_large") {
    // Never retried: it would be as large again.
    const traceId = headerTraceId(headers);
    context.warn({ route, upstreamStatus: status, upstreamTraceId: traceId, maxBodyBytes: body.maxBytes }, "clinic: upstream answer larger than UPSTREAM_MAX_BODY_BYTES, not read");
    const limit = body.maxBytes >= 1024 * 1024 ? `${Math.round((body.maxBytes / 1024 / 1024) * 10) / 10} MB` : `${Math.round(body.maxBytes / 1024)} KB`;
    const error = new UpstreamError({ status: 502, code: "upstream_too_large", message: `The Clinic Data Service answered more than Tandem reads (over ${limit})`, upstreamTraceId: traceId, upstreamStatus: status });
    return { kind: "error", error, retryableRead: false };
  }
  if (status < 200 || status >= 300) return failureOutcome(route, response, body.bytes, context);
  const taken = await take(body.bytes);
  if (taken.kind === "ok") return taken;
  const detail = taken.kind === "not_json" ? "the body is not JSON" : taken.detail;
  const traceId = (taken.kind === "contract_violation" ? taken.traceId : null) ?? headerTraceId(headers);
  return { kind: "error", error: contractViolation(route, status, detail, traceId, context), retryableRead: false };
}

export function readResponse<R extends ClinicApiRoute>(route: R, response: Response, context: ReadContext): Promise<ReadOutcome<ClinicData<R>>> {
  return readWith(route, response, context, (bytes) => {
    const checked = checkEnvelope(route, utf8Decoder.decode(bytes));
    // Parsed with this route's envelope schema.
    return Promise.resolve(checked.kind === "ok" ? { kind: "ok" as const, value: checked.data as ClinicData<R> } : checked);
  });
}

/** A shared route's answer, kept as bytes, and the `meta` its cache lifetime is read from. */
export function readSharedResponse<R extends SharedRoute>(route: R, response: Response, context: ReadContext & { intake: Intake }) {
  return readWith(route, response, context, async (bytes) => {
    const taken = await context.intake(route, bytes);
    return taken.kind === "ok" ? { kind: "ok" as const, value: { answer: SharedAnswer.fromBytes<ClinicData<R>>(taken), meta: taken.meta } } : taken;
  });
}

/** A non-2xx answer: a 429 to wait out (not processed, whatever its method), the service's error, or one without its error body. */
function failureOutcome(route: ClinicApiRoute, response: Response, bytes: Uint8Array, context: ReadContext): ReadOutcome<never> {
  const { status } = response;
  let json: unknown;
  try {
    json = JSON.parse(utf8Decoder.decode(bytes));
  } catch {
    json = undefined;
  }
  const traceId = z.safeParse(traceField, json).data?.trace_id ?? headerTraceId(response.headers);
  if (status === 429) return { kind: "rate_limited", traceId };
  const retryableRead = status >= 500 && status !== 501;
  const error = z.safeParse(errorBody, json);
  if (error.success) {
    // A 401 is about the BFF's own key, not the user's token, and a BFF 500 would read as a BFF bug: both 502.
    const bffStatus = status === 401 || status === 500 ? 502 : status;
    return { kind: "error", retryableRead, error: new UpstreamError({ status: bffStatus, code: error.data.code, message: context.redact(error.data.message), upstreamTraceId: error.data.trace_id, upstreamStatus: status }) };
  }
  if (status >= 500) {
    // A gateway or outage page, not a contract break.
    context.warn({ route, upstreamStatus: status, upstreamTraceId: traceId }, "clinic: upstream failed without an error body");
    return { kind: "error", retryableRead, error: new UpstreamError({ status: 503, code: "upstream_unavailable", message: `The Clinic Data Service failed (HTTP ${status})`, upstreamTraceId: traceId, upstreamStatus: status }) };
  }
  return { kind: "error", retryableRead: false, error: contractViolation(route, status, `an HTTP ${status} without the error body`, traceId, context) };
}
