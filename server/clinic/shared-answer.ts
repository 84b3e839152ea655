import { gunzipSync } from "node:zlib";
import { encodeJson } from "./answer-intake.ts";
import { deepFreeze } from "./deep-freeze.ts";

// A read's answer (ClinicClient.read): its bytes for a route that passes it
// to the browser unchanged (server/http/shared-json-body.ts), and `data()`
// for one that needs the objects. A shared route's answer (cache-policy.ts)
// is kept as those bytes only: a large clinic group's slot search or
// availability week is 0.5-3 MB of JSON and several times that in heap,
// while its gzip is a fifteenth of the JSON. `data()` decodes them for each
// caller (they were checked against the contract when they came in:
// answer-intake.ts); keeping the parse for the next caller was tried and
// gave nothing beyond the spread of the runs (bench/RESULTS.md, issue 37's
// ablation). A read of any other route answers its caller alone with its
// objects; its bytes are made only if asked for.

const utf8Decoder = new TextDecoder();

type Bytes = { body: Uint8Array<ArrayBuffer>; encoding: "gzip" | "identity" };

export class SharedAnswer<T extends object> {
  private constructor(
    private bytes: Bytes | undefined,
    /** A read for its callers alone (they may have joined it): its objects, held and frozen. */
    private readonly own: T | undefined,
  ) {}

  /** The answer kept as `bytes` (answer-intake.ts). */
  static fromBytes<T extends object>(bytes: Bytes): SharedAnswer<T> {
    return new SharedAnswer<T>(bytes, undefined);
  }

  /** A read's answer for its callers alone (never cached): its objects, frozen. */
  static ofData<T extends object>(data: T): SharedAnswer<T> {
    return new SharedAnswer<T>(undefined, deepFreeze(data));
  }

  /** The answer's JSON, gzip-compressed when `encoding` says so. */
  get body(): Uint8Array<ArrayBuffer> {
    return this.encoded().body;
  }

  get encoding(): "gzip" | "identity" {
    return this.encoded().encoding;
  }

  /** The bytes held: what the cache weighs the answer by. */
  get weight(): number {
    return this.body.byteLength;
  }

  /** The parsed answer: a kept answer's decoded for this caller (its own copy), else the objects read for its callers (frozen: copy before changing). */
  data(): T {
    return this.own ?? this.decode();
  }

  private encoded(): Bytes {
    this.bytes ??= encodeJson(JSON.stringify(this.own));
    return this.bytes;
  }

  private decode(): T {
    const { body, encoding } = this.encoded();
    const json = encoding === "gzip" ? gunzipSync(body) : body;
    // These bytes were serialized from data parsed with the route's contract schema.
    return JSON.parse(utf8Decoder.decode(json)) as T;
  }
}
