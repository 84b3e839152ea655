import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { MIN_GZIP_BYTES } from "./answer-intake.ts";
import { SharedAnswer } from "./shared-answer.ts";
import { shareAnswer } from "./testing/share-answer.ts";

const slots = (count: number) => ({ slots: Array.from({ length: count }, (_, index) => ({ id: `slt_${index}`, startsAt: "2026-11-23T09:00:00-05:00", note: "café" })) });

describe("SharedAnswer", () => {
  it("keeps a large answer as its gzip, and is weighed by those bytes", () => {
    const data = slots(200);
    const answer = shareAnswer(data);
    expect(answer.encoding).toBe("gzip");
    expect(JSON.parse(gunzipSync(answer.body).toString("utf8"))).toEqual(data);
    expect(answer.weight).toBe(answer.body.byteLength);
    expect(answer.weight).toBeLessThan(JSON.stringify(data).length / 5);
  });

  it("keeps a small answer as its JSON", () => {
    const data = slots(1);
    expect(JSON.stringify(data).length).toBeLessThan(MIN_GZIP_BYTES);
    const answer = shareAnswer(data);
    expect(answer.encoding).toBe("identity");
    expect(new TextDecoder().decode(answer.body)).toBe(JSON.stringify(data));
  });

  it("decodes its bytes for each caller: every caller gets its own copy", () => {
    const data = slots(200);
    const answer = shareAnswer(data);
    const first = answer.data();
    expect(first).not.toBe(data);
    expect(first).toEqual(data);
    expect(answer.data()).not.toBe(first);
    expect(answer.data()).toEqual(data);
  });

  it("holds a read's own objects, frozen, for the callers that joined it", () => {
    const data = slots(2);
    const answer = SharedAnswer.ofData(data);
    expect(answer.data()).toEqual(data);
    expect(Object.isFrozen(data.slots[0])).toBe(true);
    expect(JSON.parse(new TextDecoder().decode(answer.body))).toEqual(data);
  });
});
