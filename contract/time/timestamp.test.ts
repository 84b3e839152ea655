import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareTimestamps, readTimestamp } from "./timestamp.ts";

// The one timestamp rule (issue 34 item 4): every ISO 8601 form with a zone
// names its instant, to the microsecond, and instants order as time does.

const SECONDS_0001_TO_9998 = { min: -62_135_596_800 + 86_400, max: 253_370_764_800 - 86_400 };

/** An instant, and one way of writing it: any offset, any fraction length, either separator, extended or basic. */
const written = fc
  .record({
    epochSeconds: fc.integer(SECONDS_0001_TO_9998),
    micros: fc.integer({ min: 0, max: 999_999 }),
    offsetMinutes: fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
    digits: fc.integer({ min: 0, max: 9 }),
    separator: fc.constantFrom("T", "t", " "),
    decimal: fc.constantFrom(".", ","),
    zoneStyle: fc.constantFrom("colon", "compact", "hours", "Z"),
    basic: fc.boolean(),
  })
  .map((form) => {
    // An offset of whole hours for the `±hh` form, none for `Z`.
    const offsetMinutes = form.zoneStyle === "Z" ? 0 : form.zoneStyle === "hours" ? Math.trunc(form.offsetMinutes / 60) * 60 : form.offsetMinutes;
    const local = new Date((form.epochSeconds + offsetMinutes * 60) * 1000);
    const pad = (value: number, width = 2) => String(value).padStart(width, "0");
    const [year, month, day, hours, minutes, seconds] = [local.getUTCFullYear(), local.getUTCMonth() + 1, local.getUTCDate(), local.getUTCHours(), local.getUTCMinutes(), local.getUTCSeconds()];
    const fraction = form.digits === 0 ? "" : `${form.decimal}${pad(form.micros, 6).padEnd(9, "0").slice(0, form.digits)}`;
    const sign = offsetMinutes < 0 ? "-" : "+";
    const [offsetHours, offsetRest] = [Math.floor(Math.abs(offsetMinutes) / 60), Math.abs(offsetMinutes) % 60];
    const zone = form.zoneStyle === "Z" ? "Z" : form.zoneStyle === "hours" ? `${sign}${pad(offsetHours)}` : form.zoneStyle === "colon" ? `${sign}${pad(offsetHours)}:${pad(offsetRest)}` : `${sign}${pad(offsetHours)}${pad(offsetRest)}`;
    const text = form.basic
      ? `${pad(year, 4)}${pad(month)}${pad(day)}T${pad(hours)}${pad(minutes)}${pad(seconds)}${fraction}${zone}`
      : `${pad(year, 4)}-${pad(month)}-${pad(day)}${form.separator}${pad(hours)}:${pad(minutes)}:${pad(seconds)}${fraction}${zone}`;
    // What survives the writing: the fraction's first `digits` digits.
    const keptMicros = form.digits >= 6 ? form.micros : Math.floor(form.micros / 10 ** (6 - form.digits)) * 10 ** (6 - form.digits);
    return { text, epochSeconds: form.epochSeconds, micros: keptMicros };
  });

describe("readTimestamp", () => {
  it("reads the forms the service is known to send, and the seeds' database-style text", () => {
    expect(readTimestamp("2026-11-24T10:00:00.123Z")?.utc).toBe("2026-11-24T10:00:00.123000Z");
    expect(readTimestamp("2026-11-24T10:00:00.123456Z")?.utc).toBe("2026-11-24T10:00:00.123456Z");
    expect(readTimestamp("2026-11-24T10:00:00Z")?.utc).toBe("2026-11-24T10:00:00.000000Z");
    expect(readTimestamp("2026-11-24T05:00:00.5-05:00")?.utc).toBe("2026-11-24T10:00:00.500000Z");
    expect(readTimestamp("2026-11-24 10:00:00.123456+00")?.utc).toBe("2026-11-24T10:00:00.123456Z");
    expect(readTimestamp("2026-11-24T10:00Z")?.utc).toBe("2026-11-24T10:00:00.000000Z");
    expect(readTimestamp("20261124T153000+0530")?.utc).toBe("2026-11-24T10:00:00.000000Z");
    expect(readTimestamp("2026-11-24T10:00:00.123456789Z")).toMatchObject({ micros: 123_456, epochMs: Date.parse("2026-11-24T10:00:00.123Z") });
  });

  it("rolls the end of a day and a leap second over, as PostgreSQL does", () => {
    expect(readTimestamp("2026-12-31T24:00:00Z")?.utc).toBe("2027-01-01T00:00:00.000000Z");
    expect(readTimestamp("2016-12-31T23:59:60Z")?.utc).toBe("2017-01-01T00:00:00.000000Z");
  });

  it("refuses what names no instant", () => {
    for (const text of ["2026-11-24T10:00:00", "2026-11-24", "2026-02-29T10:00:00Z", "2026-11-24T24:00:01Z", "2026-11-24T10:60:00Z", "2026-11-24T10:00:61Z", "2026-11-24T10:00:00+24:00", "2026-11-24T10:00:00+05:60", "2026-11-24T10:00:00.Z", "0000-01-01T00:00:00+01:00", "yesterday", "", `2026-11-24T10:00:00.${"1".repeat(80)}Z`]) {
      expect(readTimestamp(text), text).toBeNull();
    }
  });

  it("reads any writing of an instant as that instant (property)", () => {
    fc.assert(
      fc.property(written, ({ text, epochSeconds, micros }) => {
        expect(readTimestamp(text), text).toMatchObject({ epochSeconds, micros });
      }),
      { numRuns: 2_000 },
    );
  });

  it("orders instants as time does, however each is written; equal instants compare equal (property)", () => {
    fc.assert(
      fc.property(written, written, (a, b) => {
        const expected = Math.sign(a.epochSeconds - b.epochSeconds || a.micros - b.micros);
        expect(Math.sign(compareTimestamps(a.text, b.text)), `${a.text} vs ${b.text}`).toBe(expected);
        // One text per instant, in time order.
        const [left, right] = [readTimestamp(a.text)?.utc ?? "", readTimestamp(b.text)?.utc ?? ""];
        expect(left < right ? -1 : left > right ? 1 : 0, `${a.text} vs ${b.text}`).toBe(expected);
      }),
      { numRuns: 2_000 },
    );
  });

  it("agrees with Date on the milliseconds of the forms Date reads", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (epochMs) => {
        const text = new Date(epochMs).toISOString();
        expect(readTimestamp(text)?.epochMs).toBe(epochMs);
      }),
    );
  });

  it("puts what is not a timestamp before every instant", () => {
    expect(compareTimestamps("garbage", "2026-11-24T10:00:00Z")).toBeLessThan(0);
    expect(compareTimestamps("2026-11-24T10:00:00Z", "garbage")).toBeGreaterThan(0);
    expect(compareTimestamps("garbage", "also garbage")).toBe(0);
  });
});
