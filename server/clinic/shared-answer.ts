import { gunzipSync } from "node:zlib";
import { encodeJson } from "./answer-intake.ts";
import { deepFreeze } from "./deep-freeze.ts";

// A read's answer (ClinicClient.read): its bytes for a route that passes it
// to the browser unchanged (server/http/shared-json-body.ts), and `data()`
// for one that needs the objects. A shared route's answer (cache-policy.ts)
// is kept as those bytes only: a large clinic group's slot search or
// availability week is 0.5-3 MB of JSON and several times that in heap,
// while its gzip is a fifteenth of the JSON; its parse is decoded again when
// asked for (it was checked against the contract when it came in:
// answer-intake.ts), and kept behind a WeakRef while some caller still uses
// it (bench-switches.ts "kept-parses"). A read of any other route answers its
// caller alone with its objects; its bytes are made only if asked for.

const utf8Decoder = new TextDecoder();

/** Whether answers keep their parse for the next caller (bench-switches.ts "kept-parses"), and who is told when a kept parse is used again. */
export interface ParseKeeping {
  keep: boolean;
  reused?: () => void;
}

const KEEP_PARSES: ParseKeeping = { keep: true };

type Bytes = { body: Uint8Array<ArrayBuffer>; encoding: "gzip" | "identity" };

export class SharedAnswer<T extends object> {
  private parsed: WeakRef<T> | undefined;

  private constructor(
    private bytes: Bytes | undefined,
    /** A read for its caller alone: its objects, held. */
    private readonly own: T | undefined,
    parsed: T | undefined,
    private readonly keeping: ParseKeeping,
  ) {
    if (parsed !== undefined && keeping.keep) this.parsed = new WeakRef(deepFreeze(parsed));
  }

  /** The answer kept as `bytes` (answer-intake.ts); `parsed`: its objects, for a caller about to use them (frozen, kept while in use). */
  static fromBytes<T extends object>(bytes: Bytes, parsed?: T, keeping: ParseKeeping = KEEP_PARSES): SharedAnswer<T> {
    return new SharedAnswer<T>(bytes, undefined, parsed, keeping);
  }

  /** A read's answer for its caller alone (never cached nor shared): its objects, frozen. */
  static ofData<T extends object>(data: T): SharedAnswer<T> {
    return new SharedAnswer<T>(undefined, deepFreeze(data), undefined, KEEP_PARSES);
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

  /** The parsed answer, frozen (it may be shared: copy before changing). */
  data(): T {
    if (this.own !== undefined) return this.own;
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
    return this.own ?? this.kept() ?? this.decode();
  }

  private kept(): T | undefined {
    const alive = this.parsed?.deref();
    if (alive !== undefined) this.keeping.reused?.();
    return alive;
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
