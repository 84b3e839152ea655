import { gunzipSync } from "node:zlib";
import { encodeJson } from "./answer-intake.ts";

// A read's answer: its bytes for a route that passes it to the browser
// unchanged (server/http/shared-json-body.ts), `data()` for one that needs the
// objects. A shared route's answer is kept as bytes only (a large group's
// slot search: 0.5-3 MB of JSON, its gzip a fifteenth), decoded for each
// caller; keeping the parse too earned nothing (ADR 0029). Any other read
// answers its callers with its objects, frozen: a caller that changes what
// others share fails loudly in tests.

const utf8Decoder = new TextDecoder();

type Bytes = { body: Uint8Array<ArrayBuffer>; encoding: "gzip" | "identity" };

function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return value;
}

export class SharedAnswer<T extends object> {
  private constructor(
    private bytes: Bytes | undefined,
    private readonly own: T | undefined,
  ) {}

  /** As kept (answer-intake.ts). */
  static fromBytes<T extends object>(bytes: Bytes): SharedAnswer<T> {
    return new SharedAnswer<T>(bytes, undefined);
  }

  /** A read for its callers alone; its bytes are made only if asked for. */
  static ofData<T extends object>(data: T): SharedAnswer<T> {
    return new SharedAnswer<T>(undefined, deepFreeze(data));
  }

  /** The JSON, gzip-compressed when `encoding` says so. */
  get body(): Uint8Array<ArrayBuffer> {
    return this.encoded().body;
  }

  get encoding(): "gzip" | "identity" {
    return this.encoded().encoding;
  }

  /** What the cache weighs it by. */
  get weight(): number {
    return this.body.byteLength;
  }

  /** A kept answer decoded for this caller (its own copy), else the objects read for its callers (frozen). */
  data(): T {
    if (this.own !== undefined) return this.own;
    const { body, encoding } = this.encoded();
    // Serialized from data parsed with the route's contract schema.
    return JSON.parse(utf8Decoder.decode(encoding === "gzip" ? gunzipSync(body) : body)) as T;
  }

  private encoded(): Bytes {
    this.bytes ??= encodeJson(JSON.stringify(this.own));
    return this.bytes;
  }
}
