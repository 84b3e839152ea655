import type { Slot } from "#contract/clinic-api/schedule.ts";
import type { BffAnswer, BffFetch } from "./bff-client.ts";
import { slotSearchAnswer } from "./slot-search-answer.ts";
import type { FromReader, ToReader } from "./slot-search-reader-protocol.ts";

// Slot searches read off the page's main thread (ADR 0031's addendum): a
// large group's part is a 2-3 MB body whose arrival and parse were each one
// task of 35-47 ms, long enough to hold a click or a key. callBff sends
// through this (`fetchWith`) and does the rest as for any call: the token, a
// 401's retry, the identity's check, the error's wording. One worker
// (slot-search-reads.ts) serves every search; where none can start (unit
// tests, a browser that refuses it), or once it has failed, `fetch` is used.

/** The page's side of the worker: what `new Worker` gives. */
export interface ReaderWorker {
  addEventListener(type: "message", listener: (event: { data: FromReader }) => void): void;
  addEventListener(type: "error", listener: () => void): void;
  postMessage(message: ToReader): void;
}

type Pending = { slots: Slot[]; resolve: (answer: BffAnswer) => void; reject: (error: Error) => void };

/** Why a read given up fails: its signal's reason, as `fetch` does. */
const abandoned = (signal: AbortSignal): Error => (signal.reason instanceof Error ? signal.reason : new DOMException("The read was abandoned", "AbortError"));

function answerOf(status: number, body: () => unknown, checked: boolean): BffAnswer {
  return { ok: status >= 200 && status < 300, status, json: () => Promise.resolve().then(body), ...(checked && { checkedWith: slotSearchAnswer }) };
}

export function slotSearchReader(startWorker: () => ReaderWorker | null, fetchFn: typeof fetch = (...args) => fetch(...args)): BffFetch {
  let worker: ReaderWorker | null | undefined;
  const pending = new Map<number, Pending>();
  let nextId = 1;

  function settle(message: FromReader): void {
    const read = pending.get(message.id);
    if (!read) return;
    if (message.kind === "slots") {
      for (const slot of message.slots) read.slots.push(slot);
      return;
    }
    pending.delete(message.id);
    if (message.kind === "answered") read.resolve(answerOf(message.status, () => ({ ...message.rest, slots: read.slots }), true));
    else if (message.kind === "refused") read.resolve(answerOf(message.status, () => JSON.parse(message.body) as unknown, false));
    else if (message.kind === "unexpected") read.resolve(answerOf(message.status, () => null, false));
    else read.reject(new TypeError(message.message));
  }

  function started(): ReaderWorker | null {
    if (worker !== undefined) return worker;
    try {
      worker = startWorker();
    } catch {
      worker = null;
    }
    worker?.addEventListener("message", (event) => settle(event.data));
    // A worker that fails (its script refused or broken) takes its reads with it: they fail as unreachable, later ones go through fetch.
    worker?.addEventListener("error", () => {
      worker = null;
      for (const [id, read] of pending) {
        pending.delete(id);
        read.reject(new TypeError("Tandem's slot search reader stopped"));
      }
    });
    return worker;
  }

  return (path, init) => {
    const reader = init.method === "GET" && init.body === undefined ? started() : null;
    if (!reader) return fetchFn(path, init);
    const signal = init.signal;
    if (signal?.aborted) return Promise.reject(abandoned(signal));
    const id = nextId++;
    return new Promise<BffAnswer>((resolve, reject) => {
      const onAbort = () => {
        pending.delete(id);
        reader.postMessage({ id, kind: "abandon" });
        if (signal) reject(abandoned(signal));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const done = () => signal?.removeEventListener("abort", onAbort);
      pending.set(id, { slots: [], resolve: (answer) => (done(), resolve(answer)), reject: (error) => (done(), reject(error)) });
      reader.postMessage({ id, kind: "read", path, headers: init.headers });
    });
  };
}

/** The app's reader: its worker started at the first search. */
export const readSlotSearchOffThread = slotSearchReader(() => (typeof Worker === "undefined" ? null : new Worker(new URL("./slot-search-worker.ts", import.meta.url), { type: "module" })));
