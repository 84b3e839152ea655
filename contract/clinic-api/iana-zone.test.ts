import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { ianaZone } from "./primitives.ts";

// The zone check remembers the names the runtime accepted; the answer must be
// the same the first time and every time after.
describe("ianaZone", () => {
  it("accepts a zone of the runtime's database, again and again", () => {
    for (let round = 0; round < 3; round += 1) {
      expect(z.safeParse(ianaZone, "Australia/Lord_Howe").success).toBe(true);
      expect(z.safeParse(ianaZone, "America/New_York").success).toBe(true);
    }
  });

  it("refuses a name that is not a zone, again and again", () => {
    for (let round = 0; round < 3; round += 1) {
      expect(z.safeParse(ianaZone, "Mars/Olympus_Mons").success).toBe(false);
      expect(z.safeParse(ianaZone, "").success).toBe(false);
    }
  });
});
