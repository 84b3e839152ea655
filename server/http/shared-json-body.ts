import type { Context } from "hono";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import type { SharedAnswer } from "../clinic/shared-answer.ts";

// A cached read's answer goes to the browser as the bytes the upstream
// client keeps for it (server/clinic/shared-answer.ts): serialized and
// compressed once for everyone it is served to, so a hit costs writing
// those bytes, not JSON.stringify and gzip of hundreds of KB each time
// (docs/deploy.md "How many users one process serves"). A client that does
// not accept gzip (no browser) gets them decompressed, off the event loop.

const gunzipAsync = promisify(gunzip);

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

/** The JSON response of a shared answer, compressed when it is and the client accepts it. */
export async function sharedJson(c: Context, answer: SharedAnswer<object>): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": "application/json", Vary: "Accept-Encoding" };
  if (answer.encoding === "identity") return c.body(answer.body, 200, headers);
  if (acceptsGzip(c.req.header("accept-encoding"))) return c.body(answer.body, 200, { ...headers, "Content-Encoding": "gzip" });
  const json = await gunzipAsync(answer.body);
  return c.body(new Uint8Array(json.buffer, json.byteOffset, json.byteLength), 200, headers);
}
