import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFaultProxy, type FaultProxy } from "./fault-proxy.ts";

// The proxy passes what no rule matches, and cuts off a matched request only
// after the service behind it has received it and answered.

let service: Server;
let received: string[];
let proxy: FaultProxy;

beforeEach(async () => {
  received = [];
  service = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      received.push(`${request.method ?? ""} ${request.url ?? ""} ${body}`);
      response.writeHead(201, { "content-type": "application/json" });
      response.end(JSON.stringify({ data: { id: "task-1" } }));
    });
  });
  await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
  proxy = await startFaultProxy(`http://127.0.0.1:${(service.address() as AddressInfo).port}`);
});

afterEach(async () => {
  await proxy.close();
  await new Promise<void>((resolve) => service.close(() => resolve()));
});

const post = (path: string, signal?: AbortSignal) => fetch(`${proxy.url}${path}`, { method: "POST", body: '{"notes":"x"}', headers: { "content-type": "application/json" }, signal });

describe("fault proxy", () => {
  it("passes requests that no rule matches, body and status unchanged", async () => {
    const answer = await post("/v2/tasks?x=1");
    expect(answer.status).toBe(201);
    expect(await answer.json()).toEqual({ data: { id: "task-1" } });
    expect(received).toEqual(['POST /v2/tasks?x=1 {"notes":"x"}']);
  });

  it("resets the connection after the service acted, for as many requests as the rule counts", async () => {
    proxy.add({ method: "post", path: /^\/v2\/tasks$/, mode: "reset", count: 1 });
    await expect(post("/v2/tasks")).rejects.toThrow(/fetch failed/);
    expect(received).toHaveLength(1);
    expect(proxy.cutOff).toEqual(["POST /v2/tasks 201"]);
    expect((await post("/v2/tasks")).status).toBe(201);
    expect(received).toHaveLength(2);
  });

  it("never answers a silenced request that the service carried out", async () => {
    proxy.add({ method: "POST", path: /^\/v2\/tasks$/, mode: "silence" });
    await expect(post("/v2/tasks", AbortSignal.timeout(300))).rejects.toThrow(/aborted|timeout/i);
    expect(received).toHaveLength(1);
    expect(proxy.cutOff).toEqual(["POST /v2/tasks 201"]);
  });
});
