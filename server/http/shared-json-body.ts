import type { Context } from "hono";

// A read's answer served as it came from the upstream client's cache is the
// same frozen object for every user it is served to (server/clinic/
// deep-freeze.ts), and a slot search or an availability week of a large
// clinic group is hundreds of KB of JSON. Serialized once per answer, as
// UTF-8 bytes, and kept as long as the answer itself (a WeakMap entry dies
// with its key): each later hit writes those bytes instead of running
// JSON.stringify and encoding again (the largest part of the BFF's CPU under
// the load benchmark, docs/deploy.md "How many users one process serves").

const serialized = new WeakMap<object, Uint8Array<ArrayBuffer>>();
const utf8 = new TextEncoder();

/** The JSON response of `data`; a frozen (shared) answer is serialized once. */
export function sharedJson(c: Context, data: object): Response {
  if (!Object.isFrozen(data)) return c.json(data);
  let bytes = serialized.get(data);
  if (bytes === undefined) {
    bytes = utf8.encode(JSON.stringify(data));
    serialized.set(data, bytes);
  }
  return c.body(bytes, 200, { "Content-Type": "application/json" });
}
