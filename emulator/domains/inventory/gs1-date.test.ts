import { describe, expect, it } from "vitest";
import { gs1Date, gs1DateToIso, gs1Year } from "./gs1-date.ts";

// GS1 dates YYMMDD (GS1 General Specifications 7.12): the century rule and day 00.

describe("gs1DateToIso", () => {
  it("reads a full date", () => {
    expect(gs1DateToIso("270630", 2026)).toBe("2027-06-30");
    expect(gs1DateToIso("261231", 2026)).toBe("2026-12-31");
  });

  it("reads day 00 as the last day of the month, leap years included", () => {
    expect(gs1DateToIso("261100", 2026)).toBe("2026-11-30");
    expect(gs1DateToIso("270200", 2026)).toBe("2027-02-28");
    expect(gs1DateToIso("280200", 2026)).toBe("2028-02-29");
    expect(gs1DateToIso("271200", 2026)).toBe("2027-12-31");
  });

  it("refuses dates that name no day", () => {
    for (const text of ["271301", "270001", "270231", "270431", "2706", "27063A"]) expect(gs1DateToIso(text, 2026)).toBeNull();
  });
});

describe("gs1Year (at most 50 years ahead, 49 behind)", () => {
  it.each([
    [26, 2026, 2026],
    [75, 2026, 2075],
    [76, 2026, 2076],
    [77, 2026, 1977],
    [99, 2026, 1999],
    [30, 2090, 2130],
    [40, 2090, 2140],
    [41, 2090, 2041],
  ])("YY %i read in %i is %i", (yy, reference, year) => {
    expect(gs1Year(yy, reference)).toBe(year);
  });
});

describe("gs1Date", () => {
  it("writes YYMMDD, day 0 as 00", () => {
    expect(gs1Date(2027, 6, 3)).toBe("270603");
    expect(gs1Date(2027, 2, 0)).toBe("270200");
  });
});
