import { serve } from "@hono/node-server";
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { noteResponse } from "#contract/app-api/note.ts";
import { ORG_A_ID } from "../../emulator/world/identities.ts";
import { createLogger } from "../logger.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";
import { drainAndClose, LIVE_EVENT_RETRY_MS, type Listener } from "./graceful-shutdown.ts";
import { LifecycleGate } from "./lifecycle-gate.ts";
import { keepIdleConnections, nodeListener } from "./node-listener.ts";

// The drain of SIGTERM on the real BFF in-process (the emulator behind it),
// with the upstream note write held until the test lets it go and the grace
// period a timer the test ends itself: nothing here waits on the wall clock.

const GRACE_MS = 25_000;

/** The upstream PATCH of a note, held until `release`. */
function heldNoteWrite() {
  let arrived: () => void = () => undefined;
  let release: () => void = () => undefined;
  const arrival = new Promise<void>((resolve) => (arrived = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    arrival,
    release: () => release(),
    interceptUpstream: async (request: Request, forward: (request: Request) => Promise<Response>) => {
      if (request.method === "PATCH" && new URL(request.url).pathname.startsWith("/v1/notes/")) {
        arrived();
        await released;
      }
      return forward(request);
    },
  };
}

/** The grace period: runs out only when the test says so. */
function graceTimer() {
  let expire: () => void = () => undefined;
  const requested: number[] = [];
  return {
    requested,
    expire: () => expire(),
    wait: (ms: number, signal: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        requested.push(ms);
        expire = resolve;
        signal.addEventListener("abort", () => reject(new Error("aborted")));
      }),
  };
}

function fakeListener() {
  const calls: string[] = [];
  const listener: Listener = {
    stopAccepting: () => {
      calls.push("stopAccepting");
      return Promise.resolve();
    },
    closeIdle: () => void calls.push("closeIdle"),
    closeAll: () => void calls.push("closeAll"),
  };
  return { listener, calls };
}

/** Reads a live-event stream to its end. */
async function readToEnd(response: Response): Promise<string> {
  const reader: ReadableStreamDefaultReader<Uint8Array> = (response.body ?? new ReadableStream<Uint8Array>()).getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
  }
}

let store: Store;
let harness: BffHarness;
let held: ReturnType<typeof heldNoteWrite>;
let gate: LifecycleGate;
let logLines: string[];

beforeEach(async () => {
  store = await createStore();
  held = heldNoteWrite();
  harness = await createBffHarness(store, { interceptUpstream: held.interceptUpstream });
  gate = new LifecycleGate();
  gate.ready(harness.bff.app.fetch);
  logLines = [];
});

afterEach(async () => {
  held.release();
  harness.emulator.emulator.close();
  await store.close();
});

function shutdownDeps(listener: Listener, grace: ReturnType<typeof graceTimer>) {
  return {
    gate,
    listener,
    streams: harness.bff.streams,
    closeBackground: () => harness.bff.close(),
    closeStore: () => store.close(),
    graceMs: GRACE_MS,
    wait: grace.wait,
    logger: createLogger({ level: "info", secrets: [], destination: { write: (line: string) => void logLines.push(line) } }),
  };
}

function physicianOnUnsignedNote() {
  const note = harness.emulator.emulator.state.org(ORG_A_ID)?.ehr.notes.find((candidate) => candidate.status !== "signed");
  if (!note) throw new Error("no unsigned note in the seed");
  return { noteId: note.id, token: async () => harness.hostToken({ noteId: note.id, userId: harness.userWithRole("Physician") }) };
}

const call = (path: string, init: { token: string; method?: string; body?: unknown }) =>
  gate.fetch(
    new Request(`http://localhost${path}`, {
      method: init.method ?? "GET",
      headers: { authorization: `Bearer ${init.token}`, ...(init.body !== undefined && { "content-type": "application/json" }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }),
  );

describe("drainAndClose", () => {
  it("answers the note write in flight (200), refuses new requests and reports not ready meanwhile, ends the live-event stream with a retry hint, closes the store", async () => {
    const { noteId, token } = physicianOnUnsignedNote();
    const stream = await call("/api/events", { token: await token() });
    expect(stream.status).toBe(200);
    const streamText = readToEnd(stream);
    const write = call(`/api/notes/${noteId}`, { token: await token(), method: "PATCH", body: { otherExamComments: "Written while the process shut down" } });
    await held.arrival;

    const { listener, calls } = fakeListener();
    const grace = graceTimer();
    const drained = drainAndClose(shutdownDeps(listener, grace));

    expect(gate.state).toBe("draining");
    expect(calls).toContain("stopAccepting");
    expect(grace.requested).toEqual([GRACE_MS]);
    const readiness = await gate.fetch(new Request("http://localhost/readyz"));
    expect(readiness.status).toBe(503);
    expect(await readiness.json()).toEqual({ ready: false, state: "draining" });
    const refused = await call("/api/session", { token: await token() });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("connection")).toBe("close");

    const text = await streamText;
    const hint = /^retry: (\d+)$/m.exec(text)?.[1];
    expect(Number(hint)).toBeGreaterThanOrEqual(LIVE_EVENT_RETRY_MS);
    expect(Number(hint)).toBeLessThan(2 * LIVE_EVENT_RETRY_MS);
    expect(harness.bff.streams.size).toBe(0);

    held.release();
    const answered = await write;
    expect(answered.status).toBe(200);
    expect(z.parse(noteResponse, await answered.json()).note.soapNote.exam.otherExamComments).toBe("Written while the process shut down");
    expect(answered.headers.get("connection")).toBe("close");

    expect(await drained).toEqual({ clean: true, cutOff: 0 });
    expect(calls).toEqual(["stopAccepting", "closeIdle"]);
    await expect(store.ping()).rejects.toThrow();
    expect(logLines.join("")).toContain("drained; store closed");
  });

  it("bounds the wait: a write still unanswered when the grace period runs out is cut off, the connections with it, and the store is closed all the same", async () => {
    const { noteId, token } = physicianOnUnsignedNote();
    const write = call(`/api/notes/${noteId}`, { token: await token(), method: "PATCH", body: { otherExamComments: "never answered" } });
    await held.arrival;

    const { listener, calls } = fakeListener();
    const grace = graceTimer();
    const drained = drainAndClose(shutdownDeps(listener, grace));
    await gate.fetch(new Request("http://localhost/readyz"));
    grace.expire();

    expect(await drained).toEqual({ clean: false, cutOff: 1 });
    expect(calls).toEqual(["stopAccepting", "closeAll"]);
    await expect(store.ping()).rejects.toThrow();
    expect(logLines.join("")).toContain("cutting the connections left");
    held.release();
    // The store is gone under it: whatever it answers, it is no longer this process's concern.
    await write.catch(() => undefined);
  });
});

describe("drainAndClose over a real socket", () => {
  it("ends a keep-alive client's live-event stream at the start of the drain and closes its connection, so the drain does not wait out the grace period", async () => {
    const { token } = physicianOnUnsignedNote();
    // As server/index.ts binds it: Node's HTTP server, idle connections kept 65 s.
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const bound = serve({ fetch: gate.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(bound));
    });
    keepIdleConnections(server, 65);
    const { port } = server.address() as AddressInfo;
    // A browser or a proxy: keeps the connection for another request once the stream has ended.
    const agent = new http.Agent({ keepAlive: true });
    const authorization = `Bearer ${await token()}`;
    let opened: () => void = () => undefined;
    const firstFrame = new Promise<void>((resolve) => (opened = resolve));
    const streamEnded = new Promise<string>((resolve) => {
      http.get({ host: "127.0.0.1", port, path: "/api/events", agent, headers: { authorization } }, (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => {
          text += chunk.toString();
          opened();
        });
        response.on("end", () => resolve(text));
      });
    });
    await firstFrame;

    // The real grace period's timer, kept short: a drain that waits for the stream's connection runs it out.
    const drained = drainAndClose({ ...shutdownDeps(nodeListener(server), graceTimer()), graceMs: 5_000, wait: (ms, signal) => delay(ms, undefined, { signal }) });
    expect(await streamEnded).toMatch(/^retry: \d+$/m);
    expect(await drained).toEqual({ clean: true, cutOff: 0 });
    agent.destroy();
  });

  it("does not wait out the grace period for a connection that never carried a request (a browser's preconnect)", async () => {
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const bound = serve({ fetch: gate.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(bound));
    });
    keepIdleConnections(server, 65);
    const { port } = server.address() as AddressInfo;
    const preconnect = net.connect({ host: "127.0.0.1", port });
    await new Promise<void>((resolve) => preconnect.once("connect", () => resolve()));
    const closedByServer = new Promise<void>((resolve) => preconnect.once("close", () => resolve()));

    const drained = drainAndClose({ ...shutdownDeps(nodeListener(server), graceTimer()), graceMs: 5_000, wait: (ms, signal) => delay(ms, undefined, { signal }) });
    expect(await drained).toEqual({ clean: true, cutOff: 0 });
    await closedByServer;
  });
});
