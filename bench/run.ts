import { runAvailabilityBench } from "./availability-bench.ts";
import { runBffBench } from "./bff-bench.ts";
import { runBffMemoryBench } from "./bff-memory-bench.ts";
import { runEmulatorSlotsBench } from "./emulator-slots-bench.ts";
import { runExpansionBench } from "./expansion-bench.ts";
import { runSpaBench } from "./spa-bench.ts";

// `npm run bench`: every benchmark, one JSON line of figures each, on stdout.
// The SPA figures need a build (`npm run build`) and Debian's Chromium.

const benches: (() => Promise<Record<string, unknown> | Record<string, unknown>[]>)[] = [runExpansionBench, runEmulatorSlotsBench, runBffBench, runBffMemoryBench, runSpaBench, runAvailabilityBench];
benches.push(async () => (await import("./slots-bench.ts")).runSlotsBench());
benches.push(async () => (await import("./slots-large-bench.ts")).runSlotsLargeBench());
benches.push(async () => (await import("./large-search-bench.ts")).runLargeSearchBench());
benches.push(async () => (await import("./availability-large-bench.ts")).runAvailabilityLargeBench());
benches.push(async () => (await import("./note-bench.ts")).runNoteBench());
benches.push(async () => (await import("./note-changes-bench.ts")).runNoteChangesBench());
benches.push(async () => (await import("./load-bench.ts")).runLoadBench());
benches.push(async () => (await import("./fairness-bench.ts")).runFairnessBench());
benches.push(async () => (await import("./api-fuzz-bench.ts")).runApiFuzzBench());

for (const bench of benches) {
  const result = await bench();
  for (const line of Array.isArray(result) ? result : [result]) console.log(JSON.stringify(line));
}
