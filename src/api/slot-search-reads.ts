import * as z from "zod/mini";
import { slotSearchAnswer } from "./slot-search-answer.ts";
import { SLOTS_PER_MESSAGE, type FromReader, type ToReader } from "./slot-search-reader-protocol.ts";

// What the slot search worker (slot-search-worker.ts) does, off the page's
// main thread (slot-search-reader.ts): a read's body arriving, its JSON
// parsed and checked against the contract, each a task of 35-47 ms for a
// large group's part on the page (bench/RESULTS.md, 2026-12-05). The checked
// slots go back in runs small enough that taking each is a short task there.

/** The worker's side of its messages. */
export interface ReaderScope {
  addEventListener(type: "message", listener: (event: { data: ToReader }) => void): void;
  postMessage(message: FromReader): void;
}

export function serveSlotSearchReads(scope: ReaderScope, fetchFn: typeof fetch = fetch): void {
  const reading = new Map<number, AbortController>();

  async function read(id: number, path: string, headers: Record<string, string>): Promise<void> {
    const controller = new AbortController();
    reading.set(id, controller);
    try {
      const response = await fetchFn(path, { headers, signal: controller.signal });
      if (!response.ok) {
        scope.postMessage({ id, kind: "refused", status: response.status, body: await response.text() });
        return;
      }
      const parsed = z.safeParse(slotSearchAnswer, await response.json().catch(() => null));
      if (!parsed.success) {
        scope.postMessage({ id, kind: "unexpected", status: response.status });
        return;
      }
      const { slots, ...rest } = parsed.data;
      for (let from = 0; from < slots.length; from += SLOTS_PER_MESSAGE) scope.postMessage({ id, kind: "slots", slots: slots.slice(from, from + SLOTS_PER_MESSAGE) });
      scope.postMessage({ id, kind: "answered", status: response.status, rest });
    } catch (error) {
      if (!controller.signal.aborted) scope.postMessage({ id, kind: "unreachable", message: error instanceof Error ? error.message : String(error) });
    } finally {
      reading.delete(id);
    }
  }

  scope.addEventListener("message", ({ data }) => {
    if (data.kind === "read") void read(data.id, data.path, data.headers);
    else reading.get(data.id)?.abort();
  });
}
