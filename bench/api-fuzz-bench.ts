import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { openEngineStore, storeEngines } from "../server/hardening/testing/engine-store.ts";
import { runRouteSweep, sweepHarnessOptions } from "../server/hardening/testing/route-sweep.ts";
import { createBffHarness } from "../server/testing/bff-harness.ts";

// Issue 34 item 5: the route sweep's full count (server/hardening/testing/
// route-sweep.ts): 10,000 generated requests over every /api and /auth route
// and method of an in-process BFF against the emulator, on the embedded
// store and, with DATABASE_URL, on PostgreSQL. One JSON line per engine: the
// requests sent, the statuses seen, how many answered 500 and any 5xx with
// its request (the figure to hold is internalErrors: 0). The unit tests send
// a bounded sample of the same sweep on every run.
// `npx tsx bench/api-fuzz-bench.ts [--requests N] [--seed S]` replays one.

export async function runApiFuzzBench(options: { requests?: number; seed?: number } = {}): Promise<Record<string, unknown>[]> {
  const requests = options.requests ?? 10_000;
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const rows: Record<string, unknown>[] = [];
  for (const engine of storeEngines(process.env.DATABASE_URL)) {
    const opened = await openEngineStore(engine);
    const harness = await createBffHarness(opened.store, sweepHarnessOptions());
    try {
      const figures = await runRouteSweep(harness, { requests, seed });
      rows.push({
        bench: "api-fuzz",
        engine: engine.name,
        seed,
        requests: figures.requests,
        unbuildable: figures.unbuildable,
        routes: figures.routesSwept,
        statuses: figures.statuses,
        internalErrors: figures.internalErrors,
        serverErrors: figures.serverErrors.length,
        violations: figures.violations.length,
        seconds: figures.seconds,
        slowestRoutes: figures.slowestRoutes,
        ...(figures.serverErrors.length > 0 && { firstServerErrors: figures.serverErrors.slice(0, 5) }),
        ...(figures.violations.length > 0 && { firstViolations: figures.violations.slice(0, 5) }),
        note: "generated requests over every /api and /auth route and method (host token, standalone session cookie, forged or none; hostile path ids; near-valid and junk queries and bodies), in-process against the emulator; rate limits raised so the BFF's own handling is what is measured",
      });
    } finally {
      await harness.close();
      await opened.close();
    }
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { requests: { type: "string" }, seed: { type: "string" } } });
  const rows = await runApiFuzzBench({
    ...(values.requests === undefined ? {} : { requests: Number(values.requests) }),
    ...(values.seed === undefined ? {} : { seed: Number(values.seed) }),
  });
  for (const row of rows) console.log(JSON.stringify(row));
}
