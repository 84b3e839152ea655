import type { Context } from "hono";
import { promisify } from "node:util";
import { constants, gzip } from "node:zlib";

// A read's answer served as it came from the upstream client's cache is the
// same frozen object for every user it is served to (server/clinic/
// deep-freeze.ts), and a slot search or an availability week of a large
// clinic group is hundreds of KB of JSON. Serialized once per answer, as
// UTF-8 bytes, and kept as long as the answer itself (a WeakMap entry dies
// with its key): each later hit writes those bytes instead of running
// JSON.stringify and encoding again (the largest part of the BFF's CPU under
// the load benchmark, docs/deploy.md "How many users one process serves").
// A client that accepts gzip (every browser) gets it compressed, also once
// per answer, off the event loop (zlib's thread pool): about a tenth of the
// bytes to write, for the BFF and for whatever carries them.

const gzipAsync = promisify(gzip);
/** Below this, compressing costs more than it saves. */
const MIN_GZIP_BYTES = 1024;

interface Serialized {
  json: Uint8Array<ArrayBuffer>;
  gzip?: Promise<Uint8Array<ArrayBuffer>>;
}

const serialized = new WeakMap<object, Serialized>();
const utf8 = new TextEncoder();

/** `gzip` listed in Accept-Encoding, and not with q=0 (RFC 9110 12.5.3). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(",").some((entry) => {
    const [coding = "", ...parameters] = entry.trim().toLowerCase().split(";");
    if (coding.trim() !== "gzip" && coding.trim() !== "*") return false;
    const quality = parameters.map((parameter) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(parameter)?.[1]).find((value) => value !== undefined);
    return quality === undefined || Number(quality) > 0;
  });
}

const compress = async (json: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> => {
  const compressed = await gzipAsync(json, { level: constants.Z_BEST_SPEED });
  return new Uint8Array(compressed.buffer.slice(compressed.byteOffset, compressed.byteOffset + compressed.byteLength));
};

/** The JSON response of `data`; a frozen (shared) answer is serialized (and compressed) once. */
export async function sharedJson(c: Context, data: object): Promise<Response> {
  if (!Object.isFrozen(data)) return c.json(data);
  let entry = serialized.get(data);
  if (entry === undefined) {
    entry = { json: utf8.encode(JSON.stringify(data)) };
    serialized.set(data, entry);
  }
  const headers: Record<string, string> = { "Content-Type": "application/json", Vary: "Accept-Encoding" };
  if (entry.json.byteLength < MIN_GZIP_BYTES || !acceptsGzip(c.req.header("accept-encoding"))) return c.body(entry.json, 200, headers);
  const shared = entry;
  const pending = (shared.gzip ??= compress(shared.json));
  try {
    return c.body(await pending, 200, { ...headers, "Content-Encoding": "gzip" });
  } catch {
    // Not kept: the next request tries again; this one gets the bytes as they are.
    if (shared.gzip === pending) delete shared.gzip;
    return c.body(shared.json, 200, headers);
  }
}
