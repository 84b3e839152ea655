import { promisify } from "node:util";
import { constants, gunzipSync, gzip } from "node:zlib";
import { deepFreeze } from "./deep-freeze.ts";

// A cacheable read's answer, as the BFF keeps it and serves it to every user
// it is shared with. A large clinic group's slot search or availability week
// is 0.5-3 MB of JSON, and its parsed form several times that in heap, while
// its gzip is a fifteenth of the JSON. So an answer is kept as those
// compressed bytes only (what the cache is bounded by, and what the routes
// that pass an answer through write to the browser as they are), and its
// parsed form only while some caller still uses it (a WeakRef): a route that
// needs the objects again after the collector took them decodes the bytes
// (validated against the contract when they came in, so not checked again).
// Serialized and compressed once per answer, compressed off the event loop
// (zlib's thread pool): docs/deploy.md "How many users one process serves".

const gzipAsync = promisify(gzip);
/** Below this, compressing costs more than it saves. */
export const MIN_GZIP_BYTES = 1024;
const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

export class SharedAnswer<T extends object> {
  private parsed: WeakRef<T> | undefined;

  private constructor(
    /** The answer's JSON, gzip-compressed when `encoding` says so. */
    readonly body: Uint8Array<ArrayBuffer>,
    readonly encoding: "gzip" | "identity",
    parsed: T | undefined,
  ) {
    if (parsed !== undefined) this.parsed = new WeakRef(deepFreeze(parsed));
  }

  /**
   * Serializes (and, when large enough, compresses) `data`. `keepParsed`:
   * the caller is about to use the objects, so they are frozen and kept while
   * in use; otherwise only the bytes are kept (no freezing to pay for).
   */
  static async of<T extends object>(data: T, { keepParsed }: { keepParsed: boolean }): Promise<SharedAnswer<T>> {
    const json = utf8.encode(JSON.stringify(data));
    const parsed = keepParsed ? data : undefined;
    if (json.byteLength < MIN_GZIP_BYTES) return new SharedAnswer(json, "identity", parsed);
    const compressed = await gzipAsync(json, { level: constants.Z_BEST_SPEED });
    return new SharedAnswer(new Uint8Array(compressed.buffer.slice(compressed.byteOffset, compressed.byteOffset + compressed.byteLength)), "gzip", parsed);
  }

  /** The bytes held: what the response cache weighs the answer by. */
  get weight(): number {
    return this.body.byteLength;
  }

  /** The answer's JSON, uncompressed. */
  json(): Uint8Array {
    return this.encoding === "gzip" ? gunzipSync(this.body) : this.body;
  }

  /** The parsed answer, frozen (it is shared: copy before changing). */
  data(): T {
    const alive = this.parsed?.deref();
    if (alive !== undefined) return alive;
    // These bytes were serialized from data parsed with the route's contract schema.
    const decoded = JSON.parse(utf8Decoder.decode(this.json())) as T;
    this.parsed = new WeakRef(deepFreeze(decoded));
    return decoded;
  }
}
