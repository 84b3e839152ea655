import { describe, expect, it } from "vitest";
import { ageOn } from "./patient-age.ts";

// Every instant and zone is pinned (ADR 0011): the result never follows the machine's date.

describe("ageOn", () => {
  const DOB = "1984-11-17";

  it("counts a birthday from its day", () => {
    expect(ageOn(DOB, Date.parse("2026-11-16T12:00:00Z"), "UTC")).toBe(41);
    expect(ageOn(DOB, Date.parse("2026-11-17T00:00:00Z"), "UTC")).toBe(42);
    expect(ageOn(DOB, Date.parse("2026-12-01T12:00:00Z"), "UTC")).toBe(42);
  });

  it("takes the day in the given zone, not the machine's", () => {
    // 03:00 UTC on the birthday is still the day before in New York.
    const instant = Date.parse("2026-11-17T03:00:00Z");
    expect(ageOn(DOB, instant, "UTC")).toBe(42);
    expect(ageOn(DOB, instant, "America/New_York")).toBe(41);
  });

  it("handles a 29 February birthday: a year older from 1 March in a common year", () => {
    expect(ageOn("2000-02-29", Date.parse("2027-02-28T12:00:00Z"), "UTC")).toBe(26);
    expect(ageOn("2000-02-29", Date.parse("2027-03-01T12:00:00Z"), "UTC")).toBe(27);
  });
});
