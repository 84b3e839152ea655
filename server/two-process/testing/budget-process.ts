import { createInterface } from "node:readline";
import * as z from "zod/mini";
import { createLimiter, openSharedBudget, readServiceLimit } from "../../upstream-budget/index.ts";

// One BFF process's upstream budget, as `server/app.ts` builds it (the one
// limiter, on the log `openSharedBudget` picks from DATABASE_URL or
// REDIS_URL), sending reads to the emulator for the organizations in LOAD
// until DURATION_MS after the parent writes "go". For shared-budget.test.ts:
// prints "ready", then, at the end, one JSON line of what it sent.

const env = z
  .object({
    EMULATOR_URL: z.string(),
    DATA_KEY: z.string(),
    SCOPE: z.enum(["key", "organization"]),
    LIMIT: z.string(),
    WINDOW_MS: z.string(),
    DURATION_MS: z.string(),
    LOAD: z.string(),
    DATABASE_URL: z.optional(z.string()),
    DATABASE_SCHEMA: z.optional(z.string()),
    REDIS_URL: z.optional(z.string()),
  })
  .parse(process.env);
const load = z.array(z.object({ organization: z.string(), inFlight: z.number(), paceMs: z.optional(z.number()) })).parse(JSON.parse(env.LOAD));
const windowMs = Number(env.WINDOW_MS);

const logger = { warn: (obj: object, msg: string) => console.error(msg, JSON.stringify(obj)), info: () => undefined };
const shared = openSharedBudget({ redisUrl: env.REDIS_URL, databaseUrl: env.DATABASE_URL, databaseSchema: env.DATABASE_SCHEMA ?? "public" }, logger);
const limiter = createLimiter({ scope: env.SCOPE, limit: Number(env.LIMIT), windowMs, maxQueueMs: windowMs, shared }, Date.now);

const sends: { organization: string; at: number; status: number }[] = [];
const refused: Record<string, number> = {};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function worker(organization: string, until: number, paceMs: number): Promise<void> {
  while (Date.now() < until) {
    try {
      await limiter.acquire(organization);
    } catch {
      refused[organization] = (refused[organization] ?? 0) + 1;
      await pause(20);
      continue;
    }
    const at = Date.now();
    const response = await fetch(`${env.EMULATOR_URL}/v1/facilities`, { headers: { authorization: `Bearer ${env.DATA_KEY}`, "x-organization-id": organization } });
    await response.arrayBuffer();
    limiter.learn(organization, readServiceLimit(response.status, response.headers, Date.now(), windowMs));
    sends.push({ organization, at, status: response.status });
    if (paceMs > 0) await pause(paceMs);
  }
}

console.log("ready");
const lines = createInterface({ input: process.stdin });
lines.once("line", () => {
  const until = Date.now() + Number(env.DURATION_MS);
  const workers = load.flatMap(({ organization, inFlight, paceMs }) => Array.from({ length: inFlight }, () => worker(organization, until, paceMs ?? 0)));
  void Promise.all(workers).then(() => {
    console.log(JSON.stringify({ sends, refused }));
    limiter.close();
    lines.close();
  });
});
