import * as z from "zod/mini";
import { parseDescribed } from "#contract/validation.ts";

// The only place the emulator reads process.env.

const emulatorEnv = z.object({
  PORT: z._default(z.pipe(z.string().check(z.regex(/^\d{1,5}$/, "must be a port number")), z.transform(Number)), 4010),
  EMULATOR_PUBLIC_URL: z.optional(z.url()),
  /** Where the host page's iframe loads the app (DESIGN.md "The host bridge"). */
  EMULATOR_APP_URL: z._default(z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }), "http://localhost:8787"),
  EMULATOR_SEED: z._default(z.pipe(z.string().check(z.regex(/^\d+$/, "must be a whole number")), z.transform(Number)), 20261122),
  EMULATOR_SCALE: z._default(z.enum(["default", "large"]), "default"),
  EMULATOR_SYNC_INTERVAL_SECONDS: z.optional(z.pipe(z.string().check(z.regex(/^\d+(\.\d+)?$/, "must be a number of seconds")), z.transform(Number))),
  EMULATOR_STALENESS_MARGIN_SECONDS: z.optional(z.pipe(z.string().check(z.regex(/^\d+$/, "must be a whole number of seconds")), z.transform(Number))),
  EMULATOR_HOLD_TTL_SECONDS: z.optional(z.pipe(z.string().check(z.regex(/^\d+$/, "must be a whole number of seconds")), z.transform(Number))),
  EMULATOR_STRONG_LATENCY_MS: z.optional(z.pipe(z.string().check(z.regex(/^\d+$/, "must be a whole number of ms")), z.transform(Number))),
  EMULATOR_FAX_OUTCOME_SECONDS: z.optional(z.pipe(z.string().check(z.regex(/^\d+(\.\d+)?$/, "must be a number of seconds")), z.transform(Number))),
  EMULATOR_SYNC_REQUEST_SECONDS: z.optional(z.pipe(z.string().check(z.regex(/^\d+(\.\d+)?$/, "must be a number of seconds")), z.transform(Number))),
  /** Load bench only: keep cached searches' answers while their inputs are the same (route-deps.ts `benchAnswerMemo`). Off by default. */
  EMULATOR_BENCH_ANSWER_MEMO: z._default(z.pipe(z.enum(["0", "1"], { error: "must be 0 or 1" }), z.transform((value) => value === "1")), false),
  /** The instant the emulator's clock starts at (and its data is generated relative to); it runs from there. Real time when unset. */
  EMULATOR_CLOCK_START: z.optional(z.pipe(z.iso.datetime({ offset: true, error: "must be an ISO 8601 instant, e.g. 2026-11-17T11:40:00Z" }), z.transform((value) => Date.parse(value)))),
});
export type EmulatorEnv = z.infer<typeof emulatorEnv>;

export function readEmulatorEnv(source: Record<string, string | undefined> = process.env): EmulatorEnv {
  const result = parseDescribed(emulatorEnv, source);
  if (!result.success) throw new Error(`Emulator configuration is invalid: ${result.message}`);
  return result.data;
}
