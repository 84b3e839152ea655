import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { appErrorBody } from "#contract/app-api/errors.ts";
import { LifecycleGate, type Readiness } from "./lifecycle-gate.ts";

// The gate in front of the BFF: what /readyz and /healthz say while starting,
// ready and draining, which requests reach the app, and how the requests in
// flight are counted for the drain.

const readiness = z.object({ ready: z.boolean(), state: z.enum(["starting", "ready", "draining"]) });
const request = (path: string) => new Request(`http://localhost${path}`);

async function ask(gate: LifecycleGate, path: string): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await gate.fetch(request(path));
  return { status: response.status, body: await response.json(), headers: response.headers };
}

/** An app that answers `/slow` only when told to. */
function appWithSlowRoute() {
  let answer: () => void = () => undefined;
  let arrived: () => void = () => undefined;
  const slowArrived = new Promise<void>((resolve) => (arrived = resolve));
  const app = async (incoming: Request): Promise<Response> => {
    const { pathname } = new URL(incoming.url);
    if (pathname === "/slow") {
      arrived();
      await new Promise<void>((resolve) => (answer = resolve));
      return Response.json({ saved: true });
    }
    if (pathname === "/healthz") return Response.json({ ok: true, store: "ready" });
    return Response.json({ path: pathname });
  };
  return { app, slowArrived, answerSlow: () => answer() };
}

describe("LifecycleGate", () => {
  it("while starting: /readyz and /healthz answer 503, everything else is refused with not_ready", async () => {
    const gate = new LifecycleGate();
    const ready = await ask(gate, "/readyz");
    expect(ready.status).toBe(503);
    expect(z.parse(readiness, ready.body)).toEqual({ ready: false, state: "starting" } satisfies Readiness);
    expect(ready.headers.get("cache-control")).toBe("no-store");
    const health = await ask(gate, "/healthz");
    expect(health).toMatchObject({ status: 503, body: { ok: false, store: "starting" } });
    const api = await ask(gate, "/api/session");
    expect(api.status).toBe(503);
    expect(z.parse(appErrorBody, api.body).code).toBe("not_ready");
    expect(api.headers.get("retry-after")).toBe("1");
  });

  it("once ready: /readyz answers 200 and requests reach the app", async () => {
    const gate = new LifecycleGate();
    gate.ready(appWithSlowRoute().app);
    expect(await ask(gate, "/readyz")).toMatchObject({ status: 200, body: { ready: true, state: "ready" } });
    expect(await ask(gate, "/api/session")).toMatchObject({ status: 200, body: { path: "/api/session" } });
    expect((await ask(gate, "/healthz")).body).toEqual({ ok: true, store: "ready" });
  });

  it("once ready: /readyz answers 503 while the store does not answer in time, and 200 again once it does; requests still reach the app", async () => {
    const gate = new LifecycleGate();
    let storeReady = true;
    gate.ready(appWithSlowRoute().app, () => storeReady);
    expect(await ask(gate, "/readyz")).toMatchObject({ status: 200, body: { ready: true, state: "ready", store: "ready" } });
    storeReady = false;
    expect(await ask(gate, "/readyz")).toMatchObject({ status: 503, body: { ready: false, state: "ready", store: "unavailable" } });
    // Each request that needs the store answers for itself (503 store_unavailable); the rest are served.
    expect(await ask(gate, "/api/session")).toMatchObject({ status: 200 });
    storeReady = true;
    expect(await ask(gate, "/readyz")).toMatchObject({ status: 200, body: { ready: true } });
  });

  it("while draining: not ready, new requests refused, /healthz still answered, a request admitted before is answered and ends its connection", async () => {
    const gate = new LifecycleGate();
    const { app, slowArrived, answerSlow } = appWithSlowRoute();
    gate.ready(app);
    const slow = gate.fetch(request("/slow"));
    await slowArrived;
    expect(gate.requestsInFlight).toBe(1);

    gate.drain();
    const idle = gate.whenIdle();
    const ready = await ask(gate, "/readyz");
    expect(ready).toMatchObject({ status: 503, body: { ready: false, state: "draining" } });
    expect(ready.headers.get("connection")).toBe("close");
    const refused = await ask(gate, "/api/session");
    expect(refused.status).toBe(503);
    const refusal = z.parse(appErrorBody, refused.body);
    expect(refusal.code).toBe("not_ready");
    expect(refusal.message).toContain("shutting down");
    expect(refused.headers.get("connection")).toBe("close");
    const health = await ask(gate, "/healthz");
    expect(health).toMatchObject({ status: 200, body: { ok: true } });
    expect(health.headers.get("connection")).toBe("close");

    answerSlow();
    const answered = await slow;
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual({ saved: true });
    expect(answered.headers.get("connection")).toBe("close");
    await idle;
    expect(gate.requestsInFlight).toBe(0);
  });

  it("a drain during start-up stays a drain when the app becomes ready", async () => {
    const gate = new LifecycleGate();
    gate.drain();
    gate.ready(appWithSlowRoute().app);
    expect(gate.state).toBe("draining");
    expect((await ask(gate, "/api/session")).status).toBe(503);
    await gate.whenIdle();
  });
});
