// An answer's body read as it arrives, at most `maxBytes` of it (issue 34
// item 1): a large clinic group's widest slot search answered 30-35 MB of
// JSON, and taking that in cost more heap than the BFF has. Past the limit
// the body is cancelled, not read to its end: fetch then closes the
// connection instead of buffering the rest.

/**
 * Default of UPSTREAM_MAX_BODY_BYTES. Taking an answer in costs four to five
 * times its size in heap (its text, the parse, the contract's copy, the
 * serialized data): measured in the compiled intake thread, a 16 MiB slot
 * search needed 80 MB of old generation (72 MB were not enough) of the 96 MB
 * it has (intake-thread.ts), and a 6 MB one fitted in 48 MB. An answer that outgrows
 * the thread's heap kills the thread, and one that does so inside
 * `JSON.parse` can abort the whole process (Node gives a dying worker 16 MB
 * more, not what a large parse needs): raise this only with the thread's heap.
 */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

export type BoundedBody = { kind: "ok"; bytes: Uint8Array<ArrayBuffer> } | { kind: "too_large"; maxBytes: number };

export async function readBoundedBody(response: Response, maxBytes: number): Promise<BoundedBody> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.body?.cancel().catch(() => undefined);
    return { kind: "too_large", maxBytes };
  }
  if (response.body === null) return { kind: "ok", bytes: new Uint8Array(0) };
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // Not awaited: a source slow to acknowledge must not hold the answer up.
      reader.cancel().catch(() => undefined);
      return { kind: "too_large", maxBytes };
    }
    chunks.push(value);
  }
  // One buffer of its own: it may be handed over (transferred) to the intake thread whole.
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { kind: "ok", bytes };
}
