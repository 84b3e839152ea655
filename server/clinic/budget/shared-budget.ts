import type { SharedLimiterOptions } from "./upstream-limiter.ts";
import { createPostgresSendLog } from "./postgres-send-log.ts";
import { createRedisSendLog } from "./redis-send-log.ts";

// Which log the BFF's processes share their upstream budget through (ADR
// 0026): Redis when REDIS_URL is set, else PostgreSQL when DATABASE_URL is
// (every multi-process deployment has it), else none: the embedded store is
// one process, which counts alone in memory.

export interface SharedBudgetConfig {
  redisUrl: string | undefined;
  databaseUrl: string | undefined;
  databaseSchema: string;
}

interface BudgetLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** Never a connection string in a log line: it may hold a password. */
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function openSharedBudget(config: SharedBudgetConfig, logger: BudgetLogger): SharedLimiterOptions | undefined {
  // A store that is down fails every reconnection: said once, until it answers again.
  let connectionFailureSaid = false;
  const onError = (error: unknown) => {
    if (connectionFailureSaid) return;
    connectionFailureSaid = true;
    logger.warn({ reason: errorText(error) }, "upstream budget: the shared store's connection failed");
  };
  const log = config.redisUrl
    ? createRedisSendLog({ url: config.redisUrl, onError })
    : config.databaseUrl
      ? createPostgresSendLog({ databaseUrl: config.databaseUrl, schema: config.databaseSchema, onError })
      : undefined;
  if (!log) return undefined;
  // One line per outage for the process, though each scope's limiter (one per organization with RATE_LIMIT_SCOPE=organization) falls back on its own.
  let fallbackSaid = false;
  return {
    log,
    onFallback: (error, localLimit) => {
      if (fallbackSaid) return;
      fallbackSaid = true;
      logger.warn(
        { engine: log.engine, reason: errorText(error), localLimit },
        `upstream budget: the shared store (${log.engine}) failed; this process keeps to a local share of ${localLimit} per window until it answers again`,
      );
    },
    onRecovered: () => {
      connectionFailureSaid = false;
      if (!fallbackSaid) return;
      fallbackSaid = false;
      logger.info({ engine: log.engine }, `upstream budget: the shared store (${log.engine}) answers again; the budget is shared`);
    },
  };
}
