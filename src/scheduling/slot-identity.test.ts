import { describe, expect, it } from "vitest";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { slotKey, slotsByKey } from "./slot-identity.ts";

const PROVIDER = "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const PROVIDER_RAW = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa";
const FACILITY = "fac_11111111111111111111111111111111";
const slot = (startsAt: string, providerId = PROVIDER): Slot => ({ providerId, facilityId: FACILITY, startsAt, endsAt: startsAt, remainingCapacity: 1, templateIds: [] });

describe("slot keys", () => {
  it("are one key for the same slot whatever the id form or offset", () => {
    expect(slotKey(slot("2026-12-01T08:00:00-05:00"))).toBe(slotKey(slot("2026-12-01T13:00:00Z", PROVIDER_RAW)));
  });

  it("are worked out again for an object whose start has changed since it was keyed", () => {
    const changing = slot("2026-12-01T08:00:00-05:00");
    const before = slotKey(changing);
    changing.startsAt = "2026-12-01T09:00:00-05:00";
    expect(slotKey(changing)).not.toBe(before);
    expect(slotKey(changing)).toBe(slotKey(slot("2026-12-01T09:00:00-05:00")));
  });

  it("index a list by key, every slot of a key kept, and a list grown since is indexed again", () => {
    const list = [slot("2026-12-01T08:00:00-05:00"), slot("2026-12-01T13:00:00Z"), slot("2026-12-01T09:00:00-05:00")];
    expect([...slotsByKey(list)].map(([key, same]) => [key, same.length])).toEqual([
      [slotKey(list[0]!), 2],
      [slotKey(list[2]!), 1],
    ]);
    list.push(slot("2026-12-01T10:00:00-05:00"));
    expect(slotsByKey(list).size).toBe(3);
  });
});
