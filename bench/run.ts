import { runEmulatorSlotsBench } from "./emulator-slots-bench.ts";
import { runExpansionBench } from "./expansion-bench.ts";

// `npm run bench`: every benchmark, one JSON line of figures each, on stdout.

const benches: (() => Promise<Record<string, unknown> | Record<string, unknown>[]>)[] = [runExpansionBench, runEmulatorSlotsBench];

for (const bench of benches) {
  const result = await bench();
  for (const line of Array.isArray(result) ? result : [result]) console.log(JSON.stringify(line));
}
