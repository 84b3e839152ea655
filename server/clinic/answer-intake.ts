import { gzipSync, constants } from "node:zlib";
import * as z from "zod/mini";
import { clinicApiResponses, type ClinicApiRoute } from "#contract/clinic-api/responses.ts";
import { describeZodError } from "#contract/validation.ts";
import type { SharedRoute } from "./cache-policy.ts";

// A 2xx body checked against its route's contract schema; for a shared route,
// its `data` also serialized as the BFF keeps and serves it (gzip when large
// enough) with the `meta` its lifetime is read from. For a large group's slot
// search that is tens of milliseconds of CPU: the BFF does it on a thread
// (intake-thread.ts), which is why this module imports nothing of the client.

/** Below this, compressing costs more than it saves. */
export const MIN_GZIP_BYTES = 1024;

type NotTaken = { kind: "not_json" } | { kind: "contract_violation"; detail: string; traceId: string | null };

export type IntakeResult = { kind: "ok"; body: Uint8Array<ArrayBuffer>; encoding: "gzip" | "identity"; meta: unknown } | NotTaken;

const traceField = z.object({ trace_id: z.string() });
const ownBuffer = (bytes: Buffer<ArrayBuffer>) => new Uint8Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));

export function encodeJson(json: string): { body: Uint8Array<ArrayBuffer>; encoding: "gzip" | "identity" } {
  const bytes = Buffer.from(json, "utf8");
  if (bytes.byteLength < MIN_GZIP_BYTES) return { body: ownBuffer(bytes), encoding: "identity" };
  return { body: ownBuffer(gzipSync(bytes, { level: constants.Z_BEST_SPEED })), encoding: "gzip" };
}

/** The envelope's `data` (typed by the caller: it was parsed with the route's schema), or why not. */
export function checkEnvelope(route: ClinicApiRoute, text: string): { kind: "ok"; data: object & { meta?: unknown } } | NotTaken {
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
  return { kind: "ok", data: (parsed.data as { data: object & { meta?: unknown } }).data };
}

export function takeIn(route: SharedRoute, text: string): IntakeResult {
  const checked = checkEnvelope(route, text);
  if (checked.kind !== "ok") return checked;
  return { kind: "ok", ...encodeJson(JSON.stringify(checked.data)), meta: checked.data.meta };
}
