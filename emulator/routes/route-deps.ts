import type { Hono } from "hono";
import type { Clock } from "../clock.ts";
import type { ServiceEnv } from "../http/env.ts";
import type { ServiceState } from "../service/service-state.ts";

export interface EmulatorSettings {
  /** How often each organization's mirror is synced. */
  syncIntervalSeconds: number;
  /**
   * What the mirror's `maxStalenessSeconds` adds to the sync interval. Seed
   * 001 "Limits" makes it a stale-read bound, so it must hold: a due sync
   * waits for the next once-a-second check and can wait on a busy event
   * loop, so the mirror can be a little older than one interval. Its size
   * is not in the seeds; the default is the least the emulator's own mirror
   * keeps (`DEFAULT_STALENESS_MARGIN_SECONDS`).
   */
  stalenessMarginSeconds: number;
  holdTtlSeconds: number;
  /** A strong read goes to the EHR live and is slower (seed 001 "Schedule": "It is slower"). */
  strongReadLatencyMs: number;
  /** From a fax's acceptance to its terminal outcome, unless the sandbox scripts another delay. */
  faxOutcomeSeconds: number;
  /** From an on-demand sync request to its re-sync, unless the sandbox scripts another delay. */
  syncRequestSeconds: number;
  rateLimit: number;
  rateLimitWindowSeconds: number;
  /** The emulator's public origin: token issuer, avatar URLs. */
  publicUrl: string;
  /** The app the host page embeds in its iframe (`EMULATOR_APP_URL`). */
  appUrl: string;
  /** False: `Idempotency-Key` is ignored, as a service without the assumed contract would (the BFF must stay correct then). */
  honourIdempotencyKey: boolean;
  /**
   * For the load bench only (`EMULATOR_BENCH_ANSWER_MEMO`), off by default:
   * keep each cached slot search's and availability window's serialized
   * answer while nothing it is made of changed, so the emulator, sharing the
   * bench's cores with the BFFs, does not make the same answer again for
   * each process. The seeds describe no such thing; answers are the same
   * either way.
   */
  benchAnswerMemo: boolean;
}

export interface RouteDeps {
  state: ServiceState;
  clock: Clock;
  settings: EmulatorSettings;
}

export type ServiceApp = Hono<ServiceEnv>;
