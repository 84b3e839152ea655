import { performance } from "node:perf_hooks";
import { constants, gunzipSync, gzipSync } from "node:zlib";
import { round } from "../measure.ts";
import { random } from "./load-random.ts";

// How fast this machine is, as one number, so that load rows from different
// machines of the same kind can be compared: the same 2-core kind has given
// p99 58 ms on one machine and 887 ms on another for the same code
// (bench/RESULTS.md, "History moved from docs/deploy.md"). The probe is the BFF's own
// kind of work on one thread: a slot search's JSON parsed, serialized,
// compressed and decompressed, the same bytes every time (seeded). Taken
// before the stack starts, with the machine otherwise quiet; the fastest of
// a few rounds after five to warm up: the machine's speed when nothing
// preempts the thread, which varies less from run to run than a median.

const SLOTS = 12_000;
const WARMUP_ROUNDS = 5;
const ROUNDS = 9;

function probeAnswer(): string {
  const next = random(20261128);
  const hex = () => Math.floor(next() * 0xffffffff).toString(16).padStart(8, "0").repeat(4);
  const slots = Array.from({ length: SLOTS }, (_, index) => {
    const startsAt = Date.UTC(2026, 11, 1 + (index % 14), 13 + (index % 8), (index % 4) * 15);
    return {
      providerId: `prv_${hex()}`,
      facilityId: `fac_${hex()}`,
      startsAt: new Date(startsAt).toISOString().replace(".000Z", "-05:00"),
      endsAt: new Date(startsAt + 15 * 60_000).toISOString().replace(".000Z", "-05:00"),
      capacity: 1 + (index % 3),
    };
  });
  return JSON.stringify({ data: { slots, meta: { sourceSyncedAt: "2026-12-01T12:00:00Z", maxStalenessSeconds: 70 } } });
}

/** Milliseconds for one round of the probe's work on this thread (the fastest of ROUNDS); lower is faster. */
export function machineSpeedProbeMs(): number {
  const text = probeAnswer();
  const rounds: number[] = [];
  for (let turn = 0; turn < WARMUP_ROUNDS + ROUNDS; turn += 1) {
    const started = performance.now();
    const parsed: unknown = JSON.parse(text);
    const compressed = gzipSync(JSON.stringify(parsed), { level: constants.Z_BEST_SPEED });
    if (gunzipSync(compressed).byteLength !== Buffer.byteLength(text)) throw new Error("machine speed probe: the round trip changed the bytes");
    if (turn >= WARMUP_ROUNDS) rounds.push(performance.now() - started);
  }
  return round(Math.min(...rounds), 1);
}
