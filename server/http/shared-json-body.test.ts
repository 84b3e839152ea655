import { Hono } from "hono";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { acceptsGzip, sharedJson } from "./shared-json-body.ts";
import { shareAnswer } from "../clinic/testing/share-answer.ts";

describe("sharedJson", () => {
  const slots = Array.from({ length: 40 }, (_, index) => ({ id: `slt_${index}`, startsAt: "2026-11-23T09:00:00-05:00", remainingCapacity: 1 }));
  const large = { slots, meta: { note: "café" } };
  const small = { slots: [], meta: { note: "small" } };
  const largeAnswer = shareAnswer(large);
  const smallAnswer = shareAnswer(small);
  const app = new Hono();
  app.get("/large", (c) => sharedJson(c, largeAnswer));
  app.get("/small", (c) => sharedJson(c, smallAnswer));

  it("gives a client that accepts gzip the answer's compressed bytes as they are kept", async () => {
    const [a, b] = await Promise.all([app.request("/large", { headers: { "Accept-Encoding": "gzip, deflate, br" } }), app.request("/large", { headers: { "Accept-Encoding": "br;q=1, gzip;q=0.5" } })]);
    for (const response of [a, b]) {
      expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
      expect(response.headers.get("Content-Encoding")).toBe("gzip");
      expect(response.headers.get("Vary")).toBe("Accept-Encoding");
    }
    const bytes = Buffer.from(await a.arrayBuffer());
    expect(bytes.equals(Buffer.from(largeAnswer.body))).toBe(true);
    expect(bytes.equals(Buffer.from(await b.arrayBuffer()))).toBe(true);
    expect(JSON.parse(gunzipSync(bytes).toString("utf8"))).toEqual(large);
  });

  it("decompresses the answer for a client that does not accept gzip", async () => {
    for (const headers of [new Headers(), new Headers({ "Accept-Encoding": "gzip;q=0, br" })]) {
      const response = await app.request("/large", { headers });
      expect(response.headers.get("Content-Encoding")).toBeNull();
      expect(response.headers.get("Vary")).toBe("Accept-Encoding");
      expect(await response.json()).toEqual(large);
    }
  });

  it("does not compress a small answer", async () => {
    expect(smallAnswer.encoding).toBe("identity");
    const response = await app.request("/small", { headers: { "Accept-Encoding": "gzip" } });
    expect(response.headers.get("Content-Encoding")).toBeNull();
    expect(await response.json()).toEqual(small);
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
