import { serve } from "@hono/node-server";
import { createEmulator, SYNC_CHECK_INTERVAL_MS } from "./app.ts";
import { EmulatorClock } from "./clock.ts";
import { readEmulatorEnv } from "./env.ts";

// `npm run emulator`: binds the emulator to PORT (default 4010) and runs the
// service's periodic sync in the background.

function readEnvOrExit() {
  try {
    return readEmulatorEnv();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

const env = readEnvOrExit();
const emulator = createEmulator({
  seed: env.EMULATOR_SEED,
  scale: env.EMULATOR_SCALE,
  ...(env.EMULATOR_CLOCK_START !== undefined && { clock: new EmulatorClock(env.EMULATOR_CLOCK_START) }),
  settings: {
    publicUrl: env.EMULATOR_PUBLIC_URL ?? `http://127.0.0.1:${env.PORT}`,
    appUrl: env.EMULATOR_APP_URL,
    ...(env.EMULATOR_SYNC_INTERVAL_SECONDS !== undefined && { syncIntervalSeconds: env.EMULATOR_SYNC_INTERVAL_SECONDS }),
    ...(env.EMULATOR_STALENESS_MARGIN_SECONDS !== undefined && { stalenessMarginSeconds: env.EMULATOR_STALENESS_MARGIN_SECONDS }),
    ...(env.EMULATOR_HOLD_TTL_SECONDS !== undefined && { holdTtlSeconds: env.EMULATOR_HOLD_TTL_SECONDS }),
    ...(env.EMULATOR_STRONG_LATENCY_MS !== undefined && { strongReadLatencyMs: env.EMULATOR_STRONG_LATENCY_MS }),
    ...(env.EMULATOR_FAX_OUTCOME_SECONDS !== undefined && { faxOutcomeSeconds: env.EMULATOR_FAX_OUTCOME_SECONDS }),
    ...(env.EMULATOR_SYNC_REQUEST_SECONDS !== undefined && { syncRequestSeconds: env.EMULATOR_SYNC_REQUEST_SECONDS }),
    benchAnswerMemo: env.EMULATOR_BENCH_ANSWER_MEMO,
  },
});

const syncTimer = setInterval(() => emulator.state.syncIfDue(), SYNC_CHECK_INTERVAL_MS);
syncTimer.unref();

const server = serve({ fetch: emulator.app.fetch, port: env.PORT, hostname: "127.0.0.1" }, (info) => {
  console.log(`emulator: Clinic Data Service sandbox on http://127.0.0.1:${info.port} (scale ${env.EMULATOR_SCALE}, seed ${env.EMULATOR_SEED}, clock ${new Date(emulator.clock.now()).toISOString()})`);
});

function shutdown() {
  clearInterval(syncTimer);
  emulator.close();
  server.close(() => process.exit(0));
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
