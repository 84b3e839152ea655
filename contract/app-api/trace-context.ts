// W3C Trace Context (`traceparent`, version 00): how one user action is
// followed from the SPA through the BFF to the Clinic Data Service. The SPA
// starts a trace per call, the BFF adopts it (or starts one) and names every
// log line and error body after it, and sends it on to the service. Pure
// functions: the browser and Node both have Web Crypto.

export interface TraceContext {
  /** 32 lower-case hex digits, not all zero. */
  traceId: string;
  /** The caller's span: 16 lower-case hex digits, not all zero. */
  parentId: string;
  /** Two hex digits; bit 0 is "sampled". */
  flags: string;
}

// Only version 00's exact form: anything else is ignored, never echoed or logged.
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ALL_ZERO = /^0+$/;

/** The context of a `traceparent` header, or null when it is absent or not of version 00's form. */
export function parseTraceparent(header: string | null | undefined): TraceContext | null {
  if (header === null || header === undefined || header.length !== 55) return null;
  const match = TRACEPARENT.exec(header);
  if (!match) return null;
  const [, traceId = "", parentId = "", flags = ""] = match;
  if (ALL_ZERO.test(traceId) || ALL_ZERO.test(parentId)) return null;
  return { traceId, parentId, flags };
}

export function formatTraceparent(context: TraceContext): string {
  return `00-${context.traceId}-${context.parentId}-${context.flags}`;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));
// One getRandomValues call costs microseconds whatever its size, and the BFF
// makes ids on every request and upstream attempt: draw them from a pool.
const POOL_BYTES = 4096;
let pool = new Uint8Array(0);
let used = 0;

function randomHex(bytes: number): string {
  for (;;) {
    if (used + bytes > pool.length) {
      pool = crypto.getRandomValues(new Uint8Array(POOL_BYTES));
      used = 0;
    }
    let hex = "";
    for (let index = used; index < used + bytes; index += 1) hex += HEX[pool[index] ?? 0];
    used += bytes;
    if (!ALL_ZERO.test(hex)) return hex;
  }
}

export const newTraceId = (): string => randomHex(16);
export const newSpanId = (): string => randomHex(8);

/** The id logs and error bodies (`trace_id`) show for a trace: support searches the BFF's logs for it. */
export const displayTraceId = (context: Pick<TraceContext, "traceId">): string => `tdm_${context.traceId}`;

/** A new trace, sampled: Tandem logs every request. */
export function newTraceContext(): TraceContext {
  return { traceId: newTraceId(), parentId: newSpanId(), flags: "01" };
}
