import { createHash } from "node:crypto";
import pg from "pg";
import type { NotificationHandlers, NotificationListener, StoreNotifications } from "./store.ts";

// PostgreSQL LISTEN/NOTIFY between the BFF processes sharing one database
// (ADR 0009). Sends go through the store's pool; listening takes one
// dedicated connection per listener, re-opened with a doubling backoff when
// it is lost. NOTIFY channels are per database, not per schema, so the
// channel carries the schema's name: test workers on their own schemas never
// hear each other.

/** PostgreSQL refuses a payload of 8000 bytes or more. */
export const MAX_NOTIFY_PAYLOAD_BYTES = 7999;

const BASE_CHANNEL = "tandem_live_events";
const MAX_IDENTIFIER_LENGTH = 63;

export function notificationChannel(schema: string): string {
  if (schema === "public") return BASE_CHANNEL;
  const named = `${BASE_CHANNEL}_${schema}`;
  return named.length <= MAX_IDENTIFIER_LENGTH ? named : `${BASE_CHANNEL}_${createHash("sha256").update(schema).digest("hex").slice(0, 32)}`;
}

export interface PostgresNotificationsOptions {
  connectionString: string;
  channel: string;
  pool: pg.Pool;
  /** How long opening the listening connection may take before it counts as lost (and is tried again). */
  connectMs?: number;
  /** The first wait after a lost connection, doubled up to `maxBackoffMs`; defaults 250 ms and 30 s. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

export function createPostgresNotifications(options: PostgresNotificationsOptions): StoreNotifications {
  return {
    async notify(payload) {
      const bytes = Buffer.byteLength(payload);
      if (bytes > MAX_NOTIFY_PAYLOAD_BYTES) throw new RangeError(`store: a notification must be at most ${MAX_NOTIFY_PAYLOAD_BYTES} bytes (this one is ${bytes})`);
      await options.pool.query("SELECT pg_notify($1, $2)", [options.channel, payload]);
    },
    listen: (handlers) => listen(options, handlers),
  };
}

function listen(options: PostgresNotificationsOptions, handlers: NotificationHandlers): NotificationListener {
  const minBackoffMs = options.minBackoffMs ?? 250;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  let current: pg.Client | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let backoffMs = minBackoffMs;
  let attempts = 0;
  let closed = false;

  /** Ends a connection that failed; only the current one schedules the next attempt. */
  function drop(client: pg.Client): void {
    if (current !== client) return;
    current = null;
    client.end().catch(() => undefined);
    if (closed || timer !== null) return;
    const wait = backoffMs;
    backoffMs = Math.min(backoffMs * 2, maxBackoffMs);
    timer = setTimeout(() => {
      timer = null;
      attempt().catch((error: unknown) => handlers.onError?.(error));
    }, wait);
    timer.unref();
  }

  async function attempt(): Promise<void> {
    const first = attempts === 0;
    attempts += 1;
    const client = new pg.Client({ connectionString: options.connectionString, keepAlive: true, ...(options.connectMs === undefined ? {} : { connectionTimeoutMillis: options.connectMs }) });
    current = client;
    client.on("notification", (message) => {
      if (message.channel === options.channel && message.payload !== undefined) handlers.onPayload(message.payload);
    });
    client.on("error", (error) => {
      handlers.onError?.(error);
      drop(client);
    });
    client.on("end", () => drop(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(options.channel)}`);
    } catch (error) {
      drop(client);
      throw error;
    }
    if (current !== client) {
      // Closed (or lost) while connecting.
      await client.end().catch(() => undefined);
      return;
    }
    backoffMs = minBackoffMs;
    if (!first) handlers.onReconnected?.();
  }

  const ready = attempt();
  // The caller may ignore a failed first attempt: the listener retries on its own.
  ready.catch(() => undefined);
  return {
    ready,
    async close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      const client = current;
      current = null;
      await client?.end().catch(() => undefined);
    },
  };
}
