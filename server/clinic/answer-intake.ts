import { gzipSync, constants } from "node:zlib";
import * as z from "zod/mini";
import { clinicApiResponses } from "#contract/clinic-api/responses.ts";
import { describeZodError } from "#contract/validation.ts";
import type { SharedRoute } from "./cache-policy.ts";

// Taking in a shared route's successful answer (cache-policy.ts): the body
// parsed and checked against the route's contract schema, its `data`
// serialized as the BFF keeps and serves it (gzip when large enough:
// shared-answer.ts), and the `meta` its cache lifetime is read from. For a
// large clinic group's slot search this is tens of milliseconds of CPU; the
// BFF does it in a worker thread (intake-worker.ts), so that the event loop
// keeps serving while an organization's answers all expire at once.

/** Below this, compressing costs more than it saves. */
export const MIN_GZIP_BYTES = 1024;

export type IntakeResult =
  | {
      kind: "ok";
      /** The `data`'s JSON, gzip-compressed when `encoding` says so. */
      body: Uint8Array<ArrayBuffer>;
      encoding: "gzip" | "identity";
      /** `data.meta`, for the cache policy (undefined for routes without one). */
      meta: unknown;
    }
  | { kind: "not_json" }
  /** `detail`: the first field that does not match, with the body's own `trace_id` if it has one. */
  | { kind: "contract_violation"; detail: string; traceId: string | null };

const traceField = z.object({ trace_id: z.string() });

/** The bytes a JSON text is kept as. */
export function encodeJson(json: string): { body: Uint8Array<ArrayBuffer>; encoding: "gzip" | "identity" } {
  const bytes = Buffer.from(json, "utf8");
  if (bytes.byteLength < MIN_GZIP_BYTES) return { body: new Uint8Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)), encoding: "identity" };
  const compressed = gzipSync(bytes, { level: constants.Z_BEST_SPEED });
  return { body: new Uint8Array(compressed.buffer.slice(compressed.byteOffset, compressed.byteOffset + compressed.byteLength)), encoding: "gzip" };
}

/** A 2xx body of `route`, taken in. */
export function takeIn(route: SharedRoute, text: string): IntakeResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "not_json" };
  }
  const schema: z.ZodMiniType = clinicApiResponses[route];
  const parsed = z.safeParse(schema, value);
  if (!parsed.success) {
    const detail = describeZodError(parsed.error, "body").split("; ")[0] ?? "body";
    return { kind: "contract_violation", detail, traceId: z.safeParse(traceField, value).data?.trace_id ?? null };
  }
  // The route's envelope schema: `{ data: {...} }` (contract/clinic-api/responses.ts).
  const data = (parsed.data as { data: object & { meta?: unknown } }).data;
  return { kind: "ok", ...encodeJson(JSON.stringify(data)), meta: data.meta };
}
