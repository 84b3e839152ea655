import { describe, expect, it } from "vitest";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { pickAlternatives } from "./slot-alternatives.ts";

const DR_ADAMS = "prv_0000000000000000000000000000000a";
const DR_BAKER = "prv_0000000000000000000000000000000b";
const UWS = "fac_00000000000000000000000000000001";

const slotAt = (startsAt: string, providerId = DR_ADAMS, remainingCapacity = 1): Slot => ({
  providerId,
  facilityId: UWS,
  startsAt,
  endsAt: startsAt.replace(/T(\d\d)/, (_, hour: string) => `T${String(Number(hour) + 1).padStart(2, "0")}`),
  remainingCapacity,
  templateIds: [],
});

const gone = slotAt("2026-11-18T16:00:00-05:00");

describe("alternatives to a gone slot", () => {
  it("offers the same day's nearest times across the searched providers, in time order", () => {
    const live = [slotAt("2026-11-18T09:00:00-05:00")];
    const searched = [slotAt("2026-11-18T15:00:00-05:00", DR_BAKER), slotAt("2026-11-18T16:00:00-05:00", DR_BAKER), slotAt("2026-11-18T08:00:00-05:00", DR_BAKER)];
    expect(pickAlternatives(gone, [live, searched]).map((slot) => `${slot.providerId.slice(-1)} ${slot.startsAt.slice(11, 16)}`)).toEqual(["b 08:00", "a 09:00", "b 15:00", "b 16:00"]);
  });

  it("fills up with the next days' earliest when the day has too few, and never offers the gone slot or a full one", () => {
    const searched = [
      gone,
      slotAt("2026-11-18T17:00:00-05:00", DR_BAKER, 0),
      slotAt("2026-11-20T10:00:00-05:00"),
      slotAt("2026-11-19T11:00:00-05:00", DR_BAKER),
      slotAt("2026-11-19T09:00:00-05:00"),
      slotAt("2026-11-17T09:00:00-05:00"),
      slotAt("2026-11-21T09:00:00-05:00"),
      slotAt("2026-11-22T09:00:00-05:00"),
      slotAt("2026-11-23T09:00:00-05:00"),
    ];
    expect(pickAlternatives(gone, [[], searched]).map((slot) => slot.startsAt.slice(0, 16))).toEqual(["2026-11-19T09:00", "2026-11-19T11:00", "2026-11-20T10:00", "2026-11-21T09:00", "2026-11-22T09:00"]);
  });

  it("takes the live read's copy of a slot the cached search also lists, and knows ids in either form", () => {
    const live = [slotAt("2026-11-18T10:00:00-05:00", DR_ADAMS, 2)];
    const cached = [{ ...slotAt("2026-11-18T10:00:00-05:00", "00000000-0000-0000-0000-00000000000a", 3) }, { ...gone, providerId: "00000000-0000-0000-0000-00000000000a" }];
    expect(pickAlternatives(gone, [live, cached])).toEqual([live[0]]);
  });
});
