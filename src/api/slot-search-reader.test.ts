import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SlotSearchResponse } from "#contract/app-api/slots.ts";
import { ApiError, callBff, setApiBridge } from "./bff-client.ts";
import { switchCacheIdentity } from "./cache-identity.ts";
import { slotSearchAnswer } from "./slot-search-answer.ts";
import { slotSearchReader, type ReaderWorker } from "./slot-search-reader.ts";
import type { FromReader, ToReader } from "./slot-search-reader-protocol.ts";
import { serveSlotSearchReads, type ReaderScope } from "./slot-search-reads.ts";
import { standaloneLink } from "../testing/fake-bff.ts";

// A slot search read off the main thread gives callBff what a read with the
// page's fetch gives: the same answer, refusal, failure and cancellation.
// The worker's side runs here in-process, its messages structured-cloned and
// delivered a task later as a worker's are.

const META = { sourceSyncedAt: "2026-11-30T12:00:00.000Z", sourceKind: "cache", maxStalenessSeconds: 60, strongConsistency: false, strategy: "native", completeness: "complete", generatedAt: "2026-11-30T12:00:00.000Z" } as const;
const slotAt = (index: number) => ({
  providerId: `prv_${String(index % 300).padStart(32, "a")}`,
  facilityId: "fac_11111111111111111111111111111111",
  startsAt: `2026-12-01T${String(8 + (index % 9)).padStart(2, "0")}:00:00-05:00`,
  endsAt: `2026-12-01T${String(8 + (index % 9)).padStart(2, "0")}:30:00-05:00`,
  remainingCapacity: 1,
  templateIds: ["avt_cccccccccccccccccccccccccccccccc"],
});
const answer = (count: number): SlotSearchResponse => ({ slots: Array.from({ length: count }, (_, index) => slotAt(index)), nextAvailableByProvider: {}, meta: META });

/** A worker running serveSlotSearchReads over `fetchFn`, and what its side posted. */
function inProcessWorker(fetchFn: typeof fetch) {
  const toPage: ((event: { data: FromReader }) => void)[] = [];
  const onError: (() => void)[] = [];
  const toWorker: ((event: { data: ToReader }) => void)[] = [];
  const posted: FromReader[] = [];
  const later = (deliver: () => void) => setTimeout(deliver, 0);
  const scope: ReaderScope = {
    addEventListener: (_type, listener) => toWorker.push(listener),
    postMessage: (message) => {
      posted.push(message);
      const data = structuredClone(message);
      later(() => toPage.forEach((listener) => listener({ data })));
    },
  };
  serveSlotSearchReads(scope, fetchFn);
  const worker: ReaderWorker = {
    addEventListener: (type: "message" | "error", listener: never) => void (type === "message" ? toPage.push(listener) : onError.push(listener)),
    postMessage: (message) => {
      const data = structuredClone(message);
      later(() => toWorker.forEach((listener) => listener({ data })));
    },
  };
  return { worker, posted, fail: () => onError.forEach((listener) => listener()) };
}

const pageFetch = vi.fn<typeof fetch>(() => Promise.resolve(Response.json(answer(1))));

afterEach(() => {
  pageFetch.mockClear();
  setApiBridge(null);
  switchCacheIdentity(new QueryClient(), null);
});

describe("slotSearchReader", () => {
  it("gives callBff the whole answer, its slots in order, sent in runs", async () => {
    setApiBridge(standaloneLink);
    const sent: Headers[] = [];
    const { worker, posted } = inProcessWorker((_path, init) => (sent.push(new Headers(init?.headers)), Promise.resolve(Response.json(answer(4_500)))));
    const read = slotSearchReader(() => worker, pageFetch);
    const got = await callBff("/api/slots?appointmentTypeId=x", slotSearchAnswer, { fetchWith: read });
    expect(got).toEqual(answer(4_500));
    expect(posted.map((message) => message.kind)).toEqual(["slots", "slots", "slots", "answered"]);
    expect(sent[0]?.get("traceparent")).toMatch(/^00-[0-9a-f]{32}-/);
    expect(pageFetch).not.toHaveBeenCalled();
  });

  it("gives a refusal's status and the BFF's explanation", async () => {
    setApiBridge(standaloneLink);
    const refusal = { code: "rate_limited", message: "Too many requests to the Clinic Data Service; try again in 2 s", trace_id: "tdm_1" };
    const { worker } = inProcessWorker(() => Promise.resolve(Response.json(refusal, { status: 503 })));
    const error = await callBff("/api/slots?x", slotSearchAnswer, { fetchWith: slotSearchReader(() => worker, pageFetch) }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error instanceof ApiError && [error.status, error.body]).toEqual([503, refusal]);
  });

  it("says an answer the contract refuses is in an unexpected shape, as a read on the page does", async () => {
    setApiBridge(standaloneLink);
    const { worker } = inProcessWorker(() => Promise.resolve(Response.json({ slots: [{ providerId: 7 }], meta: META })));
    const error = await callBff("/api/slots?x", slotSearchAnswer, { fetchWith: slotSearchReader(() => worker, pageFetch) }).catch((caught: unknown) => caught);
    expect(error instanceof ApiError && [error.status, error.body.code]).toEqual([502, "unexpected_response"]);
  });

  it("fails as the page's fetch does when Tandem's server cannot be reached", async () => {
    const { worker } = inProcessWorker(() => Promise.reject(new TypeError("Failed to fetch")));
    await expect(slotSearchReader(() => worker, pageFetch)("/api/slots?x", { method: "GET", headers: {} })).rejects.toThrow(new TypeError("Failed to fetch"));
  });

  it("abandons a read its caller gave up: rejected with the caller's reason, the worker's request aborted", async () => {
    let workerSignal: AbortSignal | undefined;
    const { worker, posted } = inProcessWorker((_path, init) => {
      workerSignal = init?.signal ?? undefined;
      return new Promise<Response>(() => undefined);
    });
    const controller = new AbortController();
    const reading = slotSearchReader(() => worker, pageFetch)("/api/slots?x", { method: "GET", headers: {}, signal: controller.signal });
    await vi.waitFor(() => expect(workerSignal).toBeDefined());
    controller.abort(new DOMException("search changed", "AbortError"));
    await expect(reading).rejects.toThrow("search changed");
    await vi.waitFor(() => expect(workerSignal?.aborted).toBe(true));
    expect(posted).toEqual([]);
  });

  it("uses the page's fetch where no worker starts, and after the worker failed (its reads then fail as unreachable)", async () => {
    await slotSearchReader(() => null, pageFetch)("/api/slots?a", { method: "GET", headers: {} });
    expect(pageFetch).toHaveBeenCalledTimes(1);

    const { worker, fail } = inProcessWorker(() => new Promise<Response>(() => undefined));
    const read = slotSearchReader(() => worker, pageFetch);
    const cut = read("/api/slots?b", { method: "GET", headers: {} });
    fail();
    await expect(cut).rejects.toThrow(TypeError);
    await read("/api/slots?c", { method: "GET", headers: {} });
    expect(pageFetch).toHaveBeenLastCalledWith("/api/slots?c", { method: "GET", headers: {} });
  });
});
