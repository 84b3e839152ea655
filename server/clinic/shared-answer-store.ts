import { createHash } from "node:crypto";
import { RESP_TYPES } from "@redis/client";
import { openRedisConnection } from "../redis-connection.ts";

// Answers kept in Redis for every BFF process (issue 37 item 5, REDIS_URL):
// a shared route's answer one process read from the service is there for the
// others until it expires, so N processes do not read it N times. Beside each
// process's own cache (answer-cache.ts), looked in on a miss of it.
//
// A change drops the organization's answers by generation: keys carry the
// organization's generation, a change increments it, and a lookup reads the
// generation and the key in one script. An answer kept under an older
// generation (a read that started before the change) is never found again.
// Coarser than the process's own cache (by facility and date): a change drops
// all of the organization's shared answers. Redis failing or slow is a miss,
// never a failed read.

export interface KeptAnswer {
  body: Uint8Array<ArrayBuffer>;
  encoding: "gzip" | "identity";
  expiresAt: number;
}

export interface SharedAnswerStore {
  /** The organization's generation now, and the answer kept under it for `key`, if any (undefined: not looked, Redis failed). */
  look(organization: string, key: string): Promise<{ generation: string; kept: KeptAnswer | null } | undefined>;
  /** Kept under `generation` until `answer.expiresAt`: found only while no change has come since that generation was read. */
  keep(organization: string, key: string, generation: string, answer: KeptAnswer, now: number): Promise<void>;
  /** A change to the organization's data: every answer kept for it is dropped. */
  dropAll(organization: string): Promise<void>;
  close(): void;
}

const LOOK = `
local generation = redis.call('GET', KEYS[1]) or '0'
return {generation, redis.call('GET', ARGV[1] .. generation .. ':' .. ARGV[2])}
`;

/** A generation outlives any answer (picker lists 60 s, schedules their staleness bound). */
const GENERATION_TTL_MS = 86_400_000;
/** A Redis slower than this answers nothing: the read goes to the service. */
const COMMAND_TIMEOUT_MS = 250;
const GZIP = 1;

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`the shared answers (redis) did not answer within ${COMMAND_TIMEOUT_MS} ms`)), COMMAND_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** [expiresAt as a float64, encoding, body]. */
function encode(answer: KeptAnswer): Buffer {
  const head = Buffer.alloc(9);
  head.writeDoubleBE(answer.expiresAt, 0);
  head.writeUInt8(answer.encoding === "gzip" ? GZIP : 0, 8);
  return Buffer.concat([head, answer.body]);
}

function decode(value: Buffer): KeptAnswer | null {
  if (value.byteLength < 9) return null;
  const body = new Uint8Array(value.byteLength - 9);
  body.set(value.subarray(9));
  return { expiresAt: value.readDoubleBE(0), encoding: value.readUInt8(8) === GZIP ? "gzip" : "identity", body };
}

/**
 * `namespace`: the service the answers come from (its base URL and key), so
 * BFFs of other services or sandboxes on one Redis never share answers.
 * `onRecovered`: the first command that succeeds after a failure.
 */
export function createRedisAnswerStore(options: { url: string; namespace: string; onError?: (error: unknown) => void; onRecovered?: () => void }): SharedAnswerStore {
  const prefix = `tandem:answers:${createHash("sha256").update(options.namespace).digest("hex").slice(0, 16)}`;
  let failing = false;
  const failed = (error: unknown) => {
    failing = true;
    options.onError?.(error);
  };
  const connection = openRedisConnection({ url: options.url, what: "the shared answers", onError: failed });
  const client = connection.client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });

  const generationKey = (organization: string) => `${prefix}:${organization}:generation`;
  const answerPrefix = (organization: string) => `${prefix}:${organization}:`;

  async function failSoft<T>(work: () => Promise<T>): Promise<T | undefined> {
    try {
      const result = await withTimeout(connection.ready().then(work));
      if (failing) {
        failing = false;
        options.onRecovered?.();
      }
      return result;
    } catch (error) {
      failed(error);
      return undefined;
    }
  }

  return {
    look: (organization, key) =>
      failSoft(async () => {
        const reply = await client.sendCommand(["EVAL", LOOK, "1", generationKey(organization), answerPrefix(organization), key]);
        if (!Array.isArray(reply) || !Buffer.isBuffer(reply[0])) throw new Error("the shared answers (redis) gave an unexpected reply");
        const value: unknown = reply[1];
        return { generation: reply[0].toString(), kept: Buffer.isBuffer(value) ? decode(value) : null };
      }),
    async keep(organization, key, generation, answer, now) {
      const ttlMs = Math.floor(answer.expiresAt - now);
      if (ttlMs <= 0) return;
      await failSoft(() => client.sendCommand(["SET", `${answerPrefix(organization)}${generation}:${key}`, encode(answer), "PX", String(ttlMs)]));
    },
    async dropAll(organization) {
      await failSoft(() => client.sendCommand(["EVAL", "redis.call('INCR', KEYS[1]); return redis.call('PEXPIRE', KEYS[1], ARGV[1])", "1", generationKey(organization), String(GENERATION_TTL_MS)]));
    },
    close: () => void connection.close(),
  };
}
