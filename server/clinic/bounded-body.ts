// An answer's body read as it arrives, at most `maxBytes` (issue 34: a large
// group's widest slot search answered 30-35 MB, more heap than the BFF has).
// Past the limit the body is cancelled, not read to its end.

/**
 * Default of UPSTREAM_MAX_BODY_BYTES. Taking an answer in costs four to five
 * times its size in heap: a 16 MiB slot search needed 80 MB of the intake
 * thread's 96 MB (intake-thread.ts), and one that outgrows it inside
 * `JSON.parse` can abort the whole process: raise this only with that heap.
 */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

export async function readBoundedBody(response: Response, maxBytes: number): Promise<{ kind: "ok"; bytes: Uint8Array<ArrayBuffer> } | { kind: "too_large"; maxBytes: number }> {
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
  // One buffer of its own: it may be handed to the intake thread whole.
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { kind: "ok", bytes };
}
