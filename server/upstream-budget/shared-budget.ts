import type { SharedLimiterOptions } from "./upstream-limiter.ts";
import { createPostgresSendLog } from "./postgres-send-log.ts";
import { createRedisSendLog } from "./redis-send-log.ts";

// Which log the processes share their budget through (ADR 0026): Redis with
// REDIS_URL, else PostgreSQL with DATABASE_URL, else none (the embedded store
// is one process). An outage is logged once per process.

interface SharedBudgetConfig {
  redisUrl: string | undefined;
  databaseUrl: string | undefined;
  databaseSchema: string;
}

interface BudgetLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** Never a connection string in a log line: it may hold a password. */
const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function openSharedBudget(config: SharedBudgetConfig, logger: BudgetLogger): SharedLimiterOptions | undefined {
  let connectionFailureSaid = false;
  let fallbackSaid = false;
  const onError = (error: unknown) => {
    if (!connectionFailureSaid) logger.warn({ reason: reasonOf(error) }, "upstream budget: the shared store's connection failed");
    connectionFailureSaid = true;
  };
  const log = config.redisUrl
    ? createRedisSendLog({ url: config.redisUrl, onError })
    : config.databaseUrl
      ? createPostgresSendLog({ databaseUrl: config.databaseUrl, schema: config.databaseSchema, onError })
      : undefined;
  if (!log) return undefined;
  const engine = log.engine;
  return {
    log,
    onFallback(error, localLimit) {
      if (fallbackSaid) return;
      fallbackSaid = true;
      logger.warn({ engine, reason: reasonOf(error), localLimit }, `upstream budget: the shared store (${engine}) failed; this process keeps to a local share of ${localLimit} per window until it answers again`);
    },
    onRecovered() {
      connectionFailureSaid = false;
      if (fallbackSaid) logger.info({ engine }, `upstream budget: the shared store (${engine}) answers again; the budget is shared`);
      fallbackSaid = false;
    },
  };
}
