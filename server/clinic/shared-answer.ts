import { gunzipSync } from "node:zlib";
import { deepFreeze } from "./deep-freeze.ts";

// A cacheable read's answer, as the BFF keeps it and serves it to every user
// it is shared with. A large clinic group's slot search or availability week
// is 0.5-3 MB of JSON, and its parsed form several times that in heap, while
// its gzip is a fifteenth of the JSON. So an answer is kept as those
// compressed bytes only (what the cache is bounded by, and what the routes
// that pass an answer through write to the browser as they are), and its
// parsed form only while some caller still uses it (a WeakRef): a route that
// needs the objects again after the collector took them decodes the bytes
// (checked against the contract when they came in: answer-intake.ts).
// docs/deploy.md "How many users one process serves".

const utf8Decoder = new TextDecoder();

/** Whether answers keep their parse for the next caller (bench-switches.ts "kept-parses"), and who is told when a kept parse is used again. */
export interface ParseKeeping {
  keep: boolean;
  reused?: () => void;
}

const KEEP_PARSES: ParseKeeping = { keep: true };

export class SharedAnswer<T extends object> {
  private parsed: WeakRef<T> | undefined;

  private constructor(
    /** The answer's JSON, gzip-compressed when `encoding` says so. */
    readonly body: Uint8Array<ArrayBuffer>,
    readonly encoding: "gzip" | "identity",
    parsed: T | undefined,
    private readonly keeping: ParseKeeping,
  ) {
    if (parsed !== undefined && keeping.keep) this.parsed = new WeakRef(deepFreeze(parsed));
  }

  /** The answer kept as `bytes` (answer-intake.ts); `parsed`: its objects, for a caller about to use them (frozen, kept while in use). */
  static fromBytes<T extends object>(bytes: { body: Uint8Array<ArrayBuffer>; encoding: "gzip" | "identity" }, parsed?: T, keeping: ParseKeeping = KEEP_PARSES): SharedAnswer<T> {
    return new SharedAnswer<T>(bytes.body, bytes.encoding, parsed, keeping);
  }

  /** The bytes held: what the response cache weighs the answer by. */
  get weight(): number {
    return this.body.byteLength;
  }

  /** The parsed answer, frozen (it is shared: copy before changing). */
  data(): T {
    const alive = this.kept();
    if (alive !== undefined) return alive;
    const decoded = deepFreeze(this.decode());
    if (this.keeping.keep) this.parsed = new WeakRef(decoded);
    return decoded;
  }

  /**
   * The parsed answer for one use that ends with the caller's request (not
   * to be changed): the kept parse while it lives, else one decoded for this
   * use and not kept. V8's minor collections treat a WeakRef's target as
   * live, so a large parse kept by `data()` is promoted to the old
   * generation; one made here dies young (ADR 0023).
   */
  dataForOneUse(): T {
    return this.kept() ?? this.decode();
  }

  private kept(): T | undefined {
    const alive = this.parsed?.deref();
    if (alive !== undefined) this.keeping.reused?.();
    return alive;
  }

  private decode(): T {
    const json = this.encoding === "gzip" ? gunzipSync(this.body) : this.body;
    // These bytes were serialized from data parsed with the route's contract schema.
    return JSON.parse(utf8Decoder.decode(json)) as T;
  }
}
