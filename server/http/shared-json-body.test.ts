import { Hono } from "hono";
import { afterEach, describe, expect, it, vi } from "vitest";
import { deepFreeze } from "../clinic/deep-freeze.ts";
import { sharedJson } from "./shared-json-body.ts";

describe("sharedJson", () => {
  const shared = deepFreeze({ slots: [{ id: "slt_1", startsAt: "2026-11-23T09:00:00-05:00" }], meta: { note: "café" } });
  const app = new Hono();
  app.get("/shared", (c) => sharedJson(c, shared));
  app.get("/fresh", (c) => sharedJson(c, { slots: [], meta: { note: "fresh" } }));

  afterEach(() => vi.restoreAllMocks());

  it("answers a frozen (shared) answer as JSON, serialized once for every request", async () => {
    const stringify = vi.spyOn(JSON, "stringify");
    const first = await app.request("/shared");
    const second = await app.request("/shared");
    for (const response of [first, second]) {
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
      expect(await response.json()).toEqual(shared);
    }
    expect(stringify.mock.calls.filter(([value]) => value === shared)).toHaveLength(1);
  });

  it("answers an answer of its own (not frozen) as c.json does", async () => {
    const response = await app.request("/fresh");
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ slots: [], meta: { note: "fresh" } });
  });
});
