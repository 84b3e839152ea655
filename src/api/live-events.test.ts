import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AppLink } from "../bridge/app-link.ts";
import { reportBffAnswered } from "./bff-reachability.ts";
import { switchCacheIdentity } from "./cache-identity.ts";
import { startLiveEvents } from "./live-events.ts";
import { queryKeys } from "./query-keys.ts";
import { getKnownOffers } from "./waitlist-offers-store.ts";

// The SPA's side of issue 34 item 3: a live-event stream the BFF ends because
// its sign-in was revoked is refused as it reconnects, and that 401 ends the
// sign-in as it does for any other call, instead of reconnecting forever.

function link(mode: AppLink["mode"]) {
  return {
    mode,
    token: vi.fn(() => Promise.resolve(mode === "embedded" ? "host-token" : null)),
    freshToken: vi.fn(() => Promise.resolve(mode === "embedded" ? "fresh-host-token" : null)),
    writeToken: vi.fn(() => Promise.resolve(null)),
    askWriteTokenAhead: vi.fn(),
    prepareSpareWriteToken: vi.fn(),
    takeSpareWriteToken: vi.fn(() => null),
    book: vi.fn(() => Promise.reject(new Error("not here"))),
    signInEnded: vi.fn(),
  } satisfies AppLink;
}

const ended = () => new Response(new ReadableStream({ start: (controller) => controller.close() }), { status: 200, headers: { "content-type": "text/event-stream" } });
const refused = () => Response.json({ code: "invalid_token", message: "Your sign-in is no longer valid: sign in again", trace_id: "t" }, { status: 401 });

/** `fetch` answering from `answers` in turn (the last one again after), each on a later turn of the event loop, as a network does. */
function stubFetch(...answers: (() => Response)[]) {
  const calls = vi.fn((_input: string, _init?: RequestInit) => undefined);
  vi.stubGlobal("fetch", (input: string, init?: RequestInit) => {
    calls(input, init);
    const answer = answers[Math.min(calls.mock.calls.length - 1, answers.length - 1)] ?? refused;
    return new Promise<Response>((resolve) => setImmediate(() => resolve(answer())));
  });
  return calls;
}

/** Lets the loop run whatever it does without waiting on a timer. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 50; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

let stop: () => void = () => undefined;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});

afterEach(() => {
  stop();
  switchCacheIdentity(new QueryClient(), null);
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("startLiveEvents", () => {
  it("outside the EHR: a stream that ends and is refused 401 as it reconnects ends the sign-in, and is not reopened", async () => {
    const calls = stubFetch(ended, refused);
    const bridge = link("standalone");
    stop = startLiveEvents(new QueryClient(), bridge);
    await settle();
    expect(calls).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_000);
    await settle();
    expect(calls).toHaveBeenCalledTimes(2);
    expect(bridge.signInEnded).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    await settle();
    expect(calls).toHaveBeenCalledTimes(2);
  });

  it("inside the EHR: a 401 is tried once more with a fresh token; refused again, the sign-in is told and the stream backs off instead of looping", async () => {
    const calls = stubFetch(refused);
    const bridge = link("embedded");
    stop = startLiveEvents(new QueryClient(), bridge);
    await settle();
    expect(calls).toHaveBeenCalledTimes(2);
    expect(bridge.freshToken).toHaveBeenCalledTimes(1);
    expect(bridge.signInEnded).toHaveBeenCalledTimes(1);
    // The backoff: nothing more until its timer runs.
    await settle();
    expect(calls).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1_000);
    await settle();
    expect(calls).toHaveBeenCalledTimes(4);
  });

  it("a stream belongs to the identity it was opened as: after a switch its events are dropped, and it is opened again as the new one", async () => {
    const client = new QueryClient();
    switchCacheIdentity(client, { organizationId: "org_a", userId: "alice" });
    const streams: ReadableStreamDefaultController<Uint8Array>[] = [];
    const tokens: (string | null)[] = [];
    vi.stubGlobal("fetch", (_input: string, init?: RequestInit) => {
      tokens.push(new Headers(init?.headers).get("authorization"));
      const body = new ReadableStream<Uint8Array>({ start: (controller) => void streams.push(controller) });
      init?.signal?.addEventListener("abort", () => streams.at(-1)?.error(new DOMException("aborted", "AbortError")));
      return Promise.resolve(new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } }));
    });
    let token = "alice-token";
    const bridge = { ...link("embedded"), token: vi.fn(() => Promise.resolve(token)) };
    stop = startLiveEvents(client, bridge);
    await settle();
    const scheduleChanged = new TextEncoder().encode('event: tandem\ndata: {"type":"schedule.changed","facilityId":"fac_1","date":null}\n\n');

    // An event already read from Alice's stream as the identity changes.
    streams[0]?.enqueue(scheduleChanged);
    token = "bob-token";
    switchCacheIdentity(client, { organizationId: "org_a", userId: "bob" });
    const bobsSearch = [...queryKeys.slots.all];
    client.setQueryData([...queryKeys.slots.all, "search", {}], { slots: [] });
    await settle();
    expect(client.getQueryCache().getAll().map((query) => query.state.isInvalidated)).toEqual([false]);
    expect(bobsSearch).toEqual(["organization", "org_a", "bob", "slots"]);
    expect(tokens).toEqual(["Bearer alice-token", "Bearer bob-token"]);

    streams[1]?.enqueue(scheduleChanged);
    await settle();
    expect(client.getQueryCache().getAll().map((query) => query.state.isInvalidated)).toEqual([true]);
  });

  it("a waitlist offer is kept for the alert as it is read, and the waitlist is read again (issue 38)", async () => {
    const client = new QueryClient();
    switchCacheIdentity(client, { organizationId: "org_a", userId: "front-desk" });
    const streams: ReadableStreamDefaultController<Uint8Array>[] = [];
    vi.stubGlobal("fetch", () => {
      const body = new ReadableStream<Uint8Array>({ start: (controller) => void streams.push(controller) });
      return Promise.resolve(new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } }));
    });
    stop = startLiveEvents(client, link("embedded"));
    await settle();
    client.setQueryData(queryKeys.waitlist.list(), { entries: [], offers: [] });
    const offer = {
      id: "7a1c2b1a-0000-4000-8000-000000000009",
      slot: { providerId: "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", facilityId: "fac_11111111111111111111111111111111", startsAt: "2026-12-08T10:00:00-05:00", endsAt: "2026-12-08T10:20:00-05:00" },
      appointmentTypeId: "atp_dddddddddddddddddddddddddddddddd",
      slotLengthMinutes: 20,
      isNewPatient: false,
      matches: [{ entryId: "5e0c2b1a-0000-4000-8000-000000000001", patientId: "pat_1", patientName: "Ana Ruiz", waitingSince: "2026-12-01T15:00:00.000Z" }],
      freedAt: "2026-12-07T15:00:00.000Z",
      takenBy: null,
    };
    streams[0]?.enqueue(new TextEncoder().encode(`event: tandem\ndata: ${JSON.stringify({ type: "waitlist.offer", offer })}\n\n`));
    await settle();
    expect([...getKnownOffers().offers.keys()]).toEqual([offer.id]);
    expect(client.getQueryState(queryKeys.waitlist.list())?.isInvalidated).toBe(true);
  });

  it("Tandem's server not answering: tried again on Tandem's backoff, never more than 10 s apart, and at once when another call finds it back", async () => {
    let isDown = true;
    const calls = vi.fn();
    vi.stubGlobal("fetch", () => {
      calls();
      if (isDown) return Promise.reject(new TypeError("Failed to fetch"));
      return Promise.resolve(new Response(new ReadableStream<Uint8Array>(), { status: 200, headers: { "content-type": "text/event-stream" } }));
    });
    stop = startLiveEvents(new QueryClient(), link("embedded"));
    await settle();
    expect(calls).toHaveBeenCalledTimes(1);
    // 1, 2, 4 and 8 s, then every 10 s.
    for (const waitMs of [1_000, 2_000, 4_000, 8_000, 10_000, 10_000]) {
      const before = calls.mock.calls.length;
      await vi.advanceTimersByTimeAsync(waitMs - 1);
      await settle();
      expect(calls).toHaveBeenCalledTimes(before);
      await vi.advanceTimersByTimeAsync(1);
      await settle();
      expect(calls).toHaveBeenCalledTimes(before + 1);
    }

    // Back: a read elsewhere in the app is answered, and the stream opens without waiting out its 10 s.
    isDown = false;
    const before = calls.mock.calls.length;
    reportBffAnswered();
    await settle();
    expect(calls).toHaveBeenCalledTimes(before + 1);
  });

  it("Tandem uninstalled while open (403): the session is read again, and the stream is tried again on the backoff until it is reinstalled, when every read is read again", async () => {
    const inactive = () => Response.json({ code: "installation_inactive", message: "Tandem's installation for this organization is uninstalled", trace_id: "t" }, { status: 403 });
    const calls = stubFetch(ended, inactive, inactive, ended);
    const client = new QueryClient();
    switchCacheIdentity(client, { organizationId: "org_a", userId: "alice" });
    client.setQueryData(queryKeys.session(), { user: "alice" });
    client.setQueryData([...queryKeys.slots.all, "search", {}], { slots: [] });
    stop = startLiveEvents(client, link("embedded"));
    await settle();
    await vi.advanceTimersByTimeAsync(1_000);
    await settle();
    expect(calls).toHaveBeenCalledTimes(2);
    expect(client.getQueryState(queryKeys.session())?.isInvalidated).toBe(true);
    expect(client.getQueryState([...queryKeys.slots.all, "search", {}])?.isInvalidated).toBe(false);
    await vi.advanceTimersByTimeAsync(2_000);
    await settle();
    expect(calls).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(4_000);
    await settle();
    expect(calls).toHaveBeenCalledTimes(4);
    expect(client.getQueryState([...queryKeys.slots.all, "search", {}])?.isInvalidated).toBe(true);
  });

  it("a stream the BFF refuses (not a lost connection) waits its turn whatever other calls it answers", async () => {
    const calls = stubFetch(() => Response.json({ code: "too_many_streams", message: "too many", trace_id: "t" }, { status: 429 }));
    stop = startLiveEvents(new QueryClient(), link("embedded"));
    await settle();
    expect(calls).toHaveBeenCalledTimes(1);
    reportBffAnswered();
    await settle();
    expect(calls).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_000);
    await settle();
    expect(calls).toHaveBeenCalledTimes(2);
  });
});
