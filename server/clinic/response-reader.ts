import * as z from "zod/mini";
import { clinicApiResponses, errorBody, type ClinicApiRoute } from "#contract/clinic-api/responses.ts";
import { describeZodError } from "#contract/validation.ts";
import type { IntakeResult } from "./answer-intake.ts";
import { readBoundedBody } from "./bounded-body.ts";
import type { SharedRoute } from "./cache-policy.ts";
import { SharedAnswer } from "./shared-answer.ts";
import { bffStatusFor, UpstreamError } from "./upstream-error.ts";

// Every answer of the service is parsed with its contract schema (success
// envelope per route, `errorBody` otherwise: seed 001 "Errors"). An answer
// that does not match becomes a 502 `contract_violation`, never a crash and
// never unchecked data reaching the BFF's routes.

type Envelope<R extends ClinicApiRoute> = z.output<(typeof clinicApiResponses)[R]>;
export type ClinicData<R extends ClinicApiRoute> = Envelope<R>["data"];

/**
 * The route's envelope schema. TypeScript cannot index the schema table with
 * a generic key, so the schema (ours, not outside data) is named by its output;
 * the data itself is only ever typed by parsing it with this schema.
 */
function envelopeSchema<R extends ClinicApiRoute>(route: R): z.ZodMiniType<Envelope<R>> {
  const schema: z.ZodMiniType = clinicApiResponses[route];
  return schema as z.ZodMiniType<Envelope<R>>;
}

/** What one attempt came to: `value` is the parsed data (`readResponse`) or the shared answer (`readSharedResponse`). */
export type ReadOutcome<V> =
  | { kind: "ok"; value: V }
  /** How long to wait is what the limiter learned from the answer's headers (service-limit-report.ts). */
  | { kind: "rate_limited"; traceId: string | null }
  | { kind: "error"; error: UpstreamError; retryableRead: boolean };

/** A shared route's answer, and the `meta` its cache lifetime is read from. */
export interface SharedRead<R extends SharedRoute> {
  answer: SharedAnswer<ClinicData<R>>;
  meta: unknown;
}

/** Takes in a 2xx body of a shared route (answer-intake.ts), in this thread or another. */
export type Intake = (route: SharedRoute, body: Uint8Array<ArrayBuffer>) => Promise<IntakeResult>;

export interface ReadContext {
  redact: (text: string) => string;
  warn: (obj: object, msg: string) => void;
  /** Bodies past this many bytes are not read (UPSTREAM_MAX_BODY_BYTES): 502 `upstream_too_large`. */
  maxBodyBytes: number;
}

const TRACE_HEADERS = ["x-trace-id", "x-request-id", "trace-id"];
const traceField = z.object({ trace_id: z.string() });

function headerTraceId(headers: Headers): string | null {
  for (const name of TRACE_HEADERS) {
    const value = headers.get(name);
    if (value) return value;
  }
  return null;
}

const utf8Decoder = new TextDecoder();

/** "16 MB", "256 KB": the limit as an operator set it, in a message. */
function describeBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** The answer's body, or the outcome of one past the limit (never read to its end, never retried: it would be as large again). */
async function readBody(route: ClinicApiRoute, response: Response, context: ReadContext): Promise<{ ok: true; bytes: Uint8Array<ArrayBuffer> } | { ok: false; outcome: ReadOutcome<never> }> {
  const body = await readBoundedBody(response, context.maxBodyBytes);
  if (body.kind === "ok") return { ok: true, bytes: body.bytes };
  const traceId = headerTraceId(response.headers);
  context.warn({ route, upstreamStatus: response.status, upstreamTraceId: traceId, maxBodyBytes: body.maxBytes }, "clinic: upstream answer larger than UPSTREAM_MAX_BODY_BYTES, not read");
  const error = new UpstreamError({
    status: 502,
    code: "upstream_too_large",
    message: `The Clinic Data Service answered more than Tandem reads (over ${describeBytes(body.maxBytes)})`,
    upstreamTraceId: traceId,
    upstreamStatus: response.status,
  });
  return { ok: false, outcome: { kind: "error", error, retryableRead: false } };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    const value: unknown = JSON.parse(text);
    return { ok: true, value };
  } catch {
    return { ok: false };
  }
}

function contractViolation(route: ClinicApiRoute, status: number, detail: string, traceId: string | null, context: ReadContext): UpstreamError {
  const message = `${route}: the Clinic Data Service's answer does not match its contract (${context.redact(detail)})`;
  context.warn({ route, upstreamStatus: status, upstreamTraceId: traceId, detail: context.redact(detail) }, "clinic: upstream contract violation");
  return new UpstreamError({ status: 502, code: "contract_violation", message, upstreamTraceId: traceId, upstreamStatus: status });
}

export async function readResponse<R extends ClinicApiRoute>(route: R, response: Response, context: ReadContext): Promise<ReadOutcome<ClinicData<R>>> {
  const body = await readBody(route, response, context);
  if (!body.ok) return body.outcome;
  const json = parseJson(utf8Decoder.decode(body.bytes));
  const bodyTraceId = json.ok ? z.safeParse(traceField, json.value).data?.trace_id : undefined;
  const traceId = bodyTraceId ?? headerTraceId(response.headers);
  const { status } = response;
  if (status < 200 || status >= 300) return failureOutcome(route, response, json, traceId, context);
  if (!json.ok) return { kind: "error", error: contractViolation(route, status, "the body is not JSON", traceId, context), retryableRead: false };
  const parsed = z.safeParse(envelopeSchema(route), json.value);
  if (!parsed.success) {
    const firstField = describeZodError(parsed.error, "body").split("; ")[0] ?? "body";
    return { kind: "error", error: contractViolation(route, status, firstField, traceId, context), retryableRead: false };
  }
  return { kind: "ok", value: parsed.data.data };
}

/** `readResponse` for a shared route: a 2xx body goes to `intake` as bytes and comes back as the answer kept and served. */
export async function readSharedResponse<R extends SharedRoute>(route: R, response: Response, context: ReadContext & { intake: Intake }): Promise<ReadOutcome<SharedRead<R>>> {
  const { status } = response;
  const body = await readBody(route, response, context);
  if (!body.ok) return body.outcome;
  if (status < 200 || status >= 300) {
    const json = parseJson(utf8Decoder.decode(body.bytes));
    const traceId = (json.ok ? z.safeParse(traceField, json.value).data?.trace_id : undefined) ?? headerTraceId(response.headers);
    return failureOutcome(route, response, json, traceId, context);
  }
  const result = await context.intake(route, body.bytes);
  if (result.kind === "not_json") return { kind: "error", error: contractViolation(route, status, "the body is not JSON", headerTraceId(response.headers), context), retryableRead: false };
  if (result.kind === "contract_violation") {
    return { kind: "error", error: contractViolation(route, status, result.detail, result.traceId ?? headerTraceId(response.headers), context), retryableRead: false };
  }
  // The intake checked `data` against this route's envelope schema.
  return { kind: "ok", value: { answer: SharedAnswer.fromBytes<ClinicData<R>>(result), meta: result.meta } };
}

/** A non-2xx answer: a 429 to wait out, the service's error, or one without its error body. */
function failureOutcome(route: ClinicApiRoute, response: Response, json: ReturnType<typeof parseJson>, traceId: string | null, context: ReadContext): ReadOutcome<never> {
  const { status } = response;
  // A 429 means the request was not processed, whatever its method (seed 001 "Errors").
  if (status === 429) return { kind: "rate_limited", traceId };

  const retryableRead = status >= 500 && status !== 501;
  const error = json.ok ? z.safeParse(errorBody, json.value) : undefined;
  if (error?.success) {
    return {
      kind: "error",
      retryableRead,
      error: new UpstreamError({ status: bffStatusFor(status), code: error.data.code, message: context.redact(error.data.message), upstreamTraceId: error.data.trace_id, upstreamStatus: status }),
    };
  }
  if (status >= 500) {
    // A 5xx without the service's error body is a gateway or outage page, not a contract break.
    context.warn({ route, upstreamStatus: status, upstreamTraceId: traceId }, "clinic: upstream failed without an error body");
    return {
      kind: "error",
      retryableRead,
      error: new UpstreamError({ status: 503, code: "upstream_unavailable", message: `The Clinic Data Service failed (HTTP ${status})`, upstreamTraceId: traceId, upstreamStatus: status }),
    };
  }
  return { kind: "error", retryableRead: false, error: contractViolation(route, status, `an HTTP ${status} without the error body`, traceId, context) };
}
