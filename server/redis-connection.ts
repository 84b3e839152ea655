import { createClient } from "@redis/client";

// The Redis connection of a store the processes share (REDIS_URL): the
// upstream budget's send log and the answers every process keeps. Neither may
// hold a request up while Redis is down, so commands fail at once while
// disconnected (no offline queue) and the client reconnects every second in
// the background; only the first command waits for the first connection.

const connect = (url: string) => createClient({ url, disableOfflineQueue: true, socket: { connectTimeout: 1_000, reconnectStrategy: 1_000 } });
export type RedisClient = ReturnType<typeof connect>;

export interface RedisConnection {
  client: RedisClient;
  /** Resolves once connected; fails at once once closed, or while a connection made before is down. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** `what` names the store in the errors it gives ("the shared answers"). */
export function openRedisConnection(options: { url: string; what: string; onError?: ((error: unknown) => void) | undefined }): RedisConnection {
  const client = connect(options.url);
  client.on("error", (error: unknown) => options.onError?.(error));
  let connecting: Promise<unknown> | null = null;
  let closed = false;
  return {
    client,
    async ready() {
      if (closed) throw new Error(`${options.what} (redis) is closed`);
      if (connecting && !client.isReady) throw new Error(`${options.what} (redis) is not connected`);
      connecting ??= client.connect().catch((error: unknown) => {
        connecting = null;
        throw error;
      });
      await connecting;
    },
    async close() {
      closed = true;
      if (connecting) await connecting.catch(() => undefined);
      if (client.isOpen) await client.close();
    },
  };
}
