import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { describeZodError } from "../validation.ts";
import { MAX_REMEMBERED_OFFSET_DATE_TIMES, offsetDateTime } from "./primitives.ts";

// The offset date-time check remembers the strings it found valid; the answer
// must be the same the first time, every time after, and after the memory is
// full and starts again.

const VALID = ["2026-03-08T03:30:00-04:00", "2026-11-28T10:00-05:00", "2024-02-29T23:59:59.999+05:45", "2026-01-01T00:00:00Z"];
const INVALID = ["2026-02-31T10:00:00-05:00", "2026-11-28T24:00:00-05:00", "2026-11-28T10:60:00-05:00", "2026-11-28T10:00:00+24:00", "2026-11-28T10:00:00", "2026-11-28", "soon", ""];

const accepts = (text: string) => z.safeParse(offsetDateTime, text).success;

describe("offsetDateTime", () => {
  it("accepts a real day and time with an offset, again and again", () => {
    for (let round = 0; round < 3; round += 1) for (const text of VALID) expect(accepts(text), text).toBe(true);
  });

  it("refuses what names no instant with an offset, again and again, with one message", () => {
    for (let round = 0; round < 3; round += 1) {
      for (const text of INVALID) {
        const result = z.safeParse(offsetDateTime, text);
        expect(result.success, text).toBe(false);
        if (!result.success) expect(describeZodError(result.error, "startsAt")).toBe("startsAt: must be an ISO 8601 date-time with a UTC offset");
      }
    }
  });

  it("answers the same once more distinct times than it remembers have been checked", () => {
    const start = Date.UTC(2026, 0, 1);
    for (let minute = 0; minute <= MAX_REMEMBERED_OFFSET_DATE_TIMES + 10; minute += 1) {
      expect(accepts(`${new Date(start + minute * 60_000).toISOString().slice(0, 16)}-05:00`)).toBe(true);
    }
    for (const text of VALID) expect(accepts(text), text).toBe(true);
    for (const text of INVALID) expect(accepts(text), text).toBe(false);
  });
});
