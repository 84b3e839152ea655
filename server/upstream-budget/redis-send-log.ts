import { randomUUID } from "node:crypto";
import * as z from "zod/mini";
import { openRedisConnection } from "../redis-connection.ts";
import type { Send, SharedSendLog } from "./send-log.ts";

// The send log in Redis: per scope a sorted set of sends scored by time, and
// a version. A round reads both in one script and records in a second only
// if the version is unchanged (else reads again). Scripts are atomic: a
// process killed mid-round leaves its sends or none.

const READ = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
return {redis.call('GET', KEYS[2]) or '0', redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')}
`;

const RECORD = `
if (redis.call('GET', KEYS[2]) or '0') ~= ARGV[1] then return 0 end
for i = 3, #ARGV, 2 do redis.call('ZADD', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return 1
`;

const readReply = z.tuple([z.string(), z.array(z.string())]);
/** [process, organization, a tag unique to the send]; a number tag is an older log's (read, not written). */
const member = z.tuple([z.string(), z.string(), z.union([z.string(), z.number()])]);
/** Rounds lost to other processes in a row before giving up (the limiter's bound usually comes first). */
const MAX_ATTEMPTS = 32;

/** `prefix` keeps tests and deployments on one Redis apart. */
export function createRedisSendLog(options: { url: string; prefix?: string; onError?: (error: unknown) => void }): SharedSendLog {
  const prefix = options.prefix ?? "tandem:upstream-budget";
  const connection = openRedisConnection({ url: options.url, what: "the shared upstream budget", onError: options.onError });
  const { client } = connection;
  // Two logs under one process name must never write the same member: ZADD would merge two sends into one.
  const logId = randomUUID();
  let sequence = 0;

  return {
    engine: "redis",
    async exchange(scope, now, windowMs, choose) {
      await connection.ready();
      const keys = [`${prefix}:${scope}:log`, `${prefix}:${scope}:version`];
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const [version, flat] = readReply.parse(await client.sendCommand(["EVAL", READ, "2", ...keys, String(now - windowMs)]));
        const logged: Send[] = [];
        for (let index = 0; index + 1 < flat.length; index += 2) {
          const [process, organization] = member.parse(JSON.parse(flat[index] ?? "null"));
          logged.push({ organization, process, at: Number(flat[index + 1]) });
        }
        const sends = choose(logged);
        if (sends.length === 0) return;
        const entries = sends.flatMap((send) => [String(send.at), JSON.stringify([send.process, send.organization, `${logId}:${(sequence += 1)}`])]);
        const recorded: unknown = await client.sendCommand(["EVAL", RECORD, "2", ...keys, version, String(windowMs * 2), ...entries]);
        if (recorded === 1) return;
        // Rounds that collided wait apart a little before reading again.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
      }
      throw new Error(`the shared upstream budget (redis): ${MAX_ATTEMPTS} rounds in a row lost to other processes`);
    },
    close: () => connection.close(),
  };
}
