import { describe, expect, it } from "vitest";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { isOtherZone, zoneAbbreviation } from "#src/lib/time-format.ts";
import { capacityText, clockChangeText, completenessText, formatLocalDay, freshnessText, schedulesText, slotAccessibleName, slotPhrase } from "./slot-text.ts";

const DR_BROOKS_SLOT: Slot = {
  providerId: "prv_0123456789abcdef0123456789abcdef",
  facilityId: "fac_0123456789abcdef0123456789abcdef",
  startsAt: "2026-12-01T10:00:00-05:00",
  endsAt: "2026-12-01T10:20:00-05:00",
  remainingCapacity: 2,
  templateIds: ["avt_0123456789abcdef0123456789abcdef"],
};

describe("capacity", () => {
  it("never invents a total, and says nothing of a single place", () => {
    expect(capacityText(2)).toBe("2 left");
    expect(capacityText(2, 3)).toBe("2 of 3 left");
    expect(capacityText(1, 3)).toBe("1 of 3 left");
    expect(capacityText(3, 2)).toBe("3 left");
    expect(capacityText(1)).toBeNull();
    expect(capacityText(1, 1)).toBeNull();
  });

  it("names overlapping schedules only when there are several", () => {
    expect(schedulesText(["avt_a"])).toBeNull();
    expect(schedulesText(["avt_a", "avt_b"])).toBe("2 schedules");
  });
});

/** A reader in Chicago with a British locale, and one in New York with an American one. */
const GB_IN_CHICAGO = { locale: "en-GB", userZone: "America/Chicago" };
const US_IN_NEW_YORK = { locale: "en-US", userZone: "America/New_York" };

describe("labels", () => {
  it("names provider, date, time (the zone where it differs from the reader's), length and capacity, in the reader's locale", () => {
    expect(slotAccessibleName({ slot: DR_BROOKS_SLOT, providerName: "Dr Brooks", localDate: "2026-12-01", zone: "America/New_York", reader: GB_IN_CHICAGO })).toBe(
      "Dr Brooks, Tuesday 1 December, 10:00 EST, 20 minutes, 2 left",
    );
    expect(slotAccessibleName({ slot: DR_BROOKS_SLOT, providerName: "Dr Brooks", localDate: "2026-12-01", zone: "America/New_York", reader: US_IN_NEW_YORK })).toBe(
      "Dr Brooks, Tuesday, December 1, 10:00 AM, 20 minutes, 2 left",
    );
  });

  it("puts a slot in a sentence with the same time and day", () => {
    expect(slotPhrase(DR_BROOKS_SLOT, "Dr Brooks", "2026-12-01", "America/New_York", US_IN_NEW_YORK)).toBe("10:00 AM with Dr Brooks on Tuesday, December 1");
  });

  it("adds overlapping schedules and the facility when asked", () => {
    const slot = { ...DR_BROOKS_SLOT, templateIds: ["avt_a", "avt_b"] };
    expect(slotAccessibleName({ slot, providerName: "Dr Brooks", localDate: "2026-12-01", zone: "America/New_York", reader: GB_IN_CHICAGO, facilityName: "Riverside" })).toBe(
      "Dr Brooks, Tuesday 1 December, 10:00 EST, 20 minutes, 2 left, 2 schedules, at Riverside",
    );
  });

  it("shows the time in the facility's zone whatever the machine's", () => {
    const slot = { ...DR_BROOKS_SLOT, startsAt: "2026-12-01T15:00:00Z", endsAt: "2026-12-01T15:20:00Z" };
    expect(slotAccessibleName({ slot, providerName: "Dr Brooks", localDate: "2026-12-01", zone: "America/Chicago", reader: { locale: "en-GB", userZone: "UTC" } })).toBe("Dr Brooks, Tuesday 1 December, 09:00 CST, 20 minutes, 2 left");
  });

  it("formats a local date without any zone", () => {
    expect(formatLocalDay("2026-03-08", GB_IN_CHICAGO)).toBe("Sunday 8 March");
    expect(formatLocalDay("2026-11-01", GB_IN_CHICAGO, { short: true })).toBe("Sun 1 Nov");
    expect(formatLocalDay("2026-11-01", US_IN_NEW_YORK, { short: true })).toBe("Sun, Nov 1");
  });

  it("names a zone only when its offset differs from the user's at that instant", () => {
    const winter = Date.parse("2026-12-01T15:00:00Z");
    expect(isOtherZone(winter, "America/New_York", "America/New_York")).toBe(false);
    expect(isOtherZone(winter, "America/New_York", "America/Toronto")).toBe(false);
    expect(isOtherZone(winter, "America/Chicago", "America/New_York")).toBe(true);
    expect(zoneAbbreviation(Date.parse("2026-07-01T15:00:00Z"), "America/New_York")).toBe("EDT");
    expect(zoneAbbreviation(winter, "Australia/Lord_Howe")).toMatch(/^(LHDT|GMT\+11)$/);
  });
});

describe("clock changes", () => {
  it("marks days that are not 24 hours long", () => {
    expect(clockChangeText(1440)).toBeNull();
    expect(clockChangeText(1380)).toBe("Clocks change: 23-hour day");
    expect(clockChangeText(1500)).toBe("Clocks change: 25-hour day");
    expect(clockChangeText(1410)).toBe("Clocks change: 23½-hour day");
    expect(clockChangeText(1470)).toBe("Clocks change: 24½-hour day");
  });
});

describe("freshness", () => {
  it("says when the list was read, on the facility's clock with seconds (its zone where it differs, the day when not today), and how far behind it may be", () => {
    const meta = { sourceSyncedAt: "2026-12-01T17:04:31.000Z", maxStalenessSeconds: 60 };
    const sameDay = Date.parse("2026-12-01T17:05:00.000Z");
    expect(freshnessText(meta, "America/New_York", GB_IN_CHICAGO, sameDay)).toBe("as of 12:04:31 EST (up to 60 s behind the EHR)");
    expect(freshnessText({ ...meta, maxStalenessSeconds: 300 }, "America/New_York", US_IN_NEW_YORK, sameDay)).toBe("as of 12:04:31 PM (up to 5 min behind the EHR)");
    expect(freshnessText({ ...meta, maxStalenessSeconds: 0 }, "UTC", { locale: "en-GB", userZone: "UTC" }, sameDay)).toBe("as of 17:04:31 (read live from the EHR)");
    expect(freshnessText(meta, "America/New_York", GB_IN_CHICAGO, Date.parse("2026-12-02T17:05:00.000Z"))).toMatch(/^as of Tue 1 Dec, 12:04:31 EST/);
  });

  it("explains an incomplete answer in words", () => {
    expect(completenessText("complete")).toBeNull();
    expect(completenessText("partial_beyond_sync_horizon")).toMatch(/^The schedule beyond the EHR sync window may be incomplete/);
    expect(completenessText("degraded")).toMatch(/degraded/);
  });
});
