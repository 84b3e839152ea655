import { cleanup } from "@testing-library/react";
import { afterEach, vi } from "vitest";
import * as z from "zod/mini";
import { appErrorBody, type AppErrorBody } from "#contract/app-api/errors.ts";
import { setApiBridge } from "#src/api/bff-client.ts";
import type { AppLink } from "#src/bridge/app-link.ts";

// The BFF faked at the network edge for component tests: `fetch` stubbed, so
// the SPA's own client (src/api/bff-client.ts) sends each call and parses
// each answer with the contract, as in the browser. A test says what each
// call answers; a success is checked against its contract schema when the
// test declares it, so a fixture cannot drift from what the BFF sends. A
// call no answer was given for is a 501 naming it, and is listed in
// `unanswered`.

/** One call the SPA made: method, path (with its query) and parsed JSON body. */
export interface BffCall {
  method: string;
  path: string;
  body: unknown;
}

export interface BffReply {
  status: number;
  body: unknown;
}

type Answer = (call: BffCall) => BffReply | Promise<BffReply>;

/** A 200 whose body is checked against the route's contract schema now (throws on a fixture the BFF could not send). */
export function ok<T extends z.ZodMiniType>(schema: T, body: z.input<T>): BffReply {
  return { status: 200, body: z.parse(schema, body) };
}

/** An error answer in the BFF's error body (`{code, message, trace_id}` and what the code carries). */
export function failure(status: number, body: Omit<AppErrorBody, "trace_id"> & { trace_id?: string }): BffReply {
  return { status, body: z.parse(appErrorBody, { trace_id: "tdm_test", ...body }) };
}

/** Signed in outside the EHR: the session cookie authorises, no token to fetch. */
export const standaloneLink: AppLink = {
  mode: "standalone",
  token: () => Promise.resolve(null),
  freshToken: () => Promise.resolve(null),
  writeToken: () => Promise.resolve(null),
  askWriteTokenAhead: () => undefined,
  prepareSpareWriteToken: () => undefined,
  takeSpareWriteToken: () => ({ token: null }),
  book: () => Promise.reject(new Error("no EHR to book in")),
  signInEnded: () => undefined,
};

export interface FakeBff {
  /** Every call answered by `answer` from now on (until replaced). */
  on(method: string, path: string, answer: BffReply | Answer): void;
  /** The next call alone answered by `answer`; queued ones go first, in order. */
  once(method: string, path: string, answer: BffReply | Answer): void;
  /** The calls made to `method path`, oldest first. */
  calls(method: string, path: string): BffCall[];
  /** Calls nothing answered: a test that expects none checks this is empty. */
  readonly unanswered: BffCall[];
}

const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** Stubs `fetch` with a fake BFF and links the API client to it; undone after each test. */
export function installFakeBff(): FakeBff {
  const standing = new Map<string, Answer>();
  const queued = new Map<string, Answer[]>();
  const made: BffCall[] = [];
  const unanswered: BffCall[] = [];
  const asAnswer = (answer: BffReply | Answer): Answer => (typeof answer === "function" ? answer : () => answer);

  vi.stubGlobal("fetch", async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, "http://tandem.test");
    const body: unknown = typeof init.body === "string" ? JSON.parse(init.body) : null;
    const call: BffCall = { method: (init.method ?? "GET").toUpperCase(), path: `${url.pathname}${url.search}`, body };
    made.push(call);
    const key = routeKey(call.method, call.path);
    const answer = queued.get(key)?.shift() ?? standing.get(key);
    if (!answer) {
      unanswered.push(call);
      return Response.json({ code: "not_implemented", message: `The fake BFF has no answer for ${key}`, trace_id: "tdm_test" }, { status: 501 });
    }
    const reply = await answer(call);
    return Response.json(reply.body, { status: reply.status });
  });
  setApiBridge(standaloneLink);

  return {
    on: (method, path, answer) => void standing.set(routeKey(method, path), asAnswer(answer)),
    once: (method, path, answer) => {
      const key = routeKey(method, path);
      queued.set(key, [...(queued.get(key) ?? []), asAnswer(answer)]);
    },
    calls: (method, path) => made.filter((call) => routeKey(call.method, call.path) === routeKey(method, path)),
    unanswered,
  };
}

/** An answer the test releases when it chooses: the state while a call is in flight can then be read. */
export function heldAnswer(): { answer: Answer; release: (reply: BffReply) => void } {
  let release: (reply: BffReply) => void = () => undefined;
  const pending = new Promise<BffReply>((resolve) => {
    release = resolve;
  });
  return { answer: () => pending, release: (reply) => release(reply) };
}

afterEach(() => {
  // Unmounted while the fake still answers: a component's last calls (a draft sent as it goes) reach it, not the network.
  cleanup();
  vi.unstubAllGlobals();
  setApiBridge(null);
});
