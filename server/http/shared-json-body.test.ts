import { Hono } from "hono";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { deepFreeze } from "../clinic/deep-freeze.ts";
import { acceptsGzip, sharedJson } from "./shared-json-body.ts";

describe("sharedJson", () => {
  const slots = Array.from({ length: 40 }, (_, index) => ({ id: `slt_${index}`, startsAt: "2026-11-23T09:00:00-05:00", remainingCapacity: 1 }));
  const shared = deepFreeze({ slots, meta: { note: "café" } });
  const small = deepFreeze({ slots: [], meta: { note: "small" } });
  const app = new Hono();
  app.get("/shared", (c) => sharedJson(c, shared));
  app.get("/small", (c) => sharedJson(c, small));
  app.get("/fresh", (c) => sharedJson(c, { slots: [], meta: { note: "fresh" } }));

  afterEach(() => vi.restoreAllMocks());

  it("answers a frozen (shared) answer as JSON, serialized once for every request", async () => {
    const stringify = vi.spyOn(JSON, "stringify");
    const first = await app.request("/shared");
    const second = await app.request("/shared", { headers: { "Accept-Encoding": "gzip" } });
    expect(first.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(first.headers.get("Content-Encoding")).toBeNull();
    expect(await first.json()).toEqual(shared);
    expect(second.headers.get("Content-Encoding")).toBe("gzip");
    expect(JSON.parse(gunzipSync(Buffer.from(await second.arrayBuffer())).toString("utf8"))).toEqual(shared);
    for (const response of [first, second]) expect(response.headers.get("Vary")).toBe("Accept-Encoding");
    expect(stringify.mock.calls.filter(([value]) => value === shared)).toHaveLength(1);
  });

  it("gives the same compressed bytes to every client that accepts gzip", async () => {
    const [a, b] = await Promise.all([app.request("/shared", { headers: { "Accept-Encoding": "gzip, deflate, br" } }), app.request("/shared", { headers: { "Accept-Encoding": "br;q=1, gzip;q=0.5" } })]);
    expect(Buffer.from(await a.arrayBuffer()).equals(Buffer.from(await b.arrayBuffer()))).toBe(true);
  });

  it("does not compress a small answer", async () => {
    const response = await app.request("/small", { headers: { "Accept-Encoding": "gzip" } });
    expect(response.headers.get("Content-Encoding")).toBeNull();
    expect(await response.json()).toEqual(small);
  });

  it("answers an answer of its own (not frozen) as c.json does", async () => {
    const response = await app.request("/fresh", { headers: { "Accept-Encoding": "gzip" } });
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(response.headers.get("Content-Encoding")).toBeNull();
    expect(await response.json()).toEqual({ slots: [], meta: { note: "fresh" } });
  });
});

describe("acceptsGzip", () => {
  it.each([
    ["gzip, deflate, br, zstd", true],
    ["br;q=1.0, gzip;q=0.8", true],
    ["*", true],
    ["gzip;q=0", false],
    ["deflate, br", false],
    ["identity", false],
    ["", false],
  ])("%j: %s", (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});
