import { gunzipSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { MIN_GZIP_BYTES } from "./answer-intake.ts";
import { shareAnswer } from "./testing/share-answer.ts";

const slots = (count: number) => ({ slots: Array.from({ length: count }, (_, index) => ({ id: `slt_${index}`, startsAt: "2026-11-23T09:00:00-05:00", note: "café" })) });

describe("SharedAnswer", () => {
  it("keeps a large answer as its gzip, and is weighed by those bytes", () => {
    const data = slots(200);
    const answer = shareAnswer(data, { keepParsed: false });
    expect(answer.encoding).toBe("gzip");
    expect(JSON.parse(gunzipSync(answer.body).toString("utf8"))).toEqual(data);
    expect(answer.weight).toBe(answer.body.byteLength);
    expect(answer.weight).toBeLessThan(JSON.stringify(data).length / 5);
  });

  it("keeps a small answer as its JSON", () => {
    const data = slots(1);
    expect(JSON.stringify(data).length).toBeLessThan(MIN_GZIP_BYTES);
    const answer = shareAnswer(data, { keepParsed: false });
    expect(answer.encoding).toBe("identity");
    expect(new TextDecoder().decode(answer.body)).toBe(JSON.stringify(data));
  });

  it("hands its callers the objects it was made from, frozen, while they are in use", () => {
    const data = slots(200);
    const answer = shareAnswer(data, { keepParsed: true });
    const parse = vi.spyOn(JSON, "parse");
    expect(answer.data()).toBe(data);
    expect(Object.isFrozen(data.slots[0])).toBe(true);
    expect(parse).not.toHaveBeenCalled();
    parse.mockRestore();
  });

  it("decodes its bytes, once, for a caller when it kept no objects", () => {
    const data = slots(200);
    const answer = shareAnswer(data, { keepParsed: false });
    expect(Object.isFrozen(data)).toBe(false);
    const first = answer.data();
    expect(first).not.toBe(data);
    expect(first).toEqual(data);
    expect(Object.isFrozen(first.slots[0])).toBe(true);
    expect(answer.data()).toBe(first);
  });

  it("decodes its bytes for one use without keeping them, and hands out the kept objects while they live (dataForOneUse)", () => {
    const data = slots(200);
    const answer = shareAnswer(data, { keepParsed: false });
    const once = answer.dataForOneUse();
    expect(once).toEqual(data);
    // Not kept: the next data() decodes its own, frozen.
    expect(Object.isFrozen(once.slots[0])).toBe(false);
    const kept = answer.data();
    expect(kept).not.toBe(once);
    expect(answer.dataForOneUse()).toBe(kept);
    expect(shareAnswer(data, { keepParsed: true }).dataForOneUse()).toBe(data);
  });

  it("with kept parses turned off (BENCH_DISABLE=kept-parses), keeps no objects and decodes for every caller; while on, counts each reuse", () => {
    const data = slots(200);
    const reused = vi.fn();
    const off = shareAnswer(data, { keepParsed: true, keeping: { keep: false, reused } });
    const first = off.data();
    expect(first).not.toBe(data);
    expect(first).toEqual(data);
    expect(Object.isFrozen(first.slots[0])).toBe(true);
    expect(off.data()).not.toBe(first);
    expect(off.dataForOneUse()).not.toBe(first);
    expect(reused).not.toHaveBeenCalled();
    const on = shareAnswer(data, { keepParsed: true, keeping: { keep: true, reused } });
    expect(on.data()).toBe(data);
    expect(on.dataForOneUse()).toBe(data);
    expect(reused).toHaveBeenCalledTimes(2);
  });
});
