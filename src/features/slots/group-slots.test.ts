import { describe, expect, it } from "vitest";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { formatInstant, localToInstant } from "#contract/time/zoned-time.ts";
import { MAX_SLOTS_PER_HOUR_ROW, countSlots, earliestSlot, groupSlotsByDay, groupSlotsByTime } from "./group-slots.ts";
import { slotKey } from "#src/scheduling/slot-identity.ts";

const NEW_YORK_FACILITY = "fac_11111111111111111111111111111111";
const CHICAGO_FACILITY = "fac_22222222222222222222222222222222";
const DR_BROOKS = "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const DR_ADAMS = "prv_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
const ZONES: Record<string, string> = { [NEW_YORK_FACILITY]: "America/New_York", [CHICAGO_FACILITY]: "America/Chicago" };
const NAMES: Record<string, string> = { [DR_BROOKS]: "Brooks", [DR_ADAMS]: "Adams" };

function slotAt(providerId: string, facilityId: string, date: string, time: string, minutes = 15, remainingCapacity = 1): Slot {
  const zone = ZONES[facilityId] ?? "UTC";
  const start = localToInstant(date, time, zone);
  return { providerId, facilityId, startsAt: formatInstant(start, zone), endsAt: formatInstant(start + minutes * 60_000, zone), remainingCapacity, templateIds: ["avt_cccccccccccccccccccccccccccccccc"] };
}

const group = (slots: Slot[]) => groupSlotsByDay(slots, { zoneOf: (id) => ZONES[id], fallbackZone: "UTC", providerSortKey: (id) => NAMES[id] ?? id });

describe("grouping slots by local day and provider", () => {
  it("marks New York's fall-back day (2026-11-01) as 25 hours and puts its 01:00-04:00 slots on that day, the repeated hour twice", () => {
    const slots = ["01:00", "01:30", "02:00", "03:45"].map((time) => slotAt(DR_BROOKS, NEW_YORK_FACILITY, "2026-11-01", time));
    // The second 01:30 (EST), an hour after the first (EDT): a real slot of the 4-hour instance.
    const repeated = Date.parse(slots[1]?.startsAt ?? "") + 3_600_000;
    slots.push({ ...slots[0]!, startsAt: formatInstant(repeated, "America/New_York"), endsAt: formatInstant(repeated + 900_000, "America/New_York") });
    const days = group(slots);
    expect(days.map((day) => day.date)).toEqual(["2026-11-01"]);
    expect(days[0]?.clockChanges).toEqual([{ zone: "America/New_York", dayLengthMinutes: 1500 }]);
    expect(days[0]?.rows[0]?.slots.map((entry) => entry.slot.startsAt)).toEqual([
      "2026-11-01T01:00:00-04:00",
      "2026-11-01T01:30:00-04:00",
      "2026-11-01T01:30:00-05:00",
      "2026-11-01T02:00:00-05:00",
      "2026-11-01T03:45:00-05:00",
    ]);
  });

  it("marks spring-forward (2026-03-08) as 23 hours and leaves ordinary days unmarked", () => {
    const days = group([slotAt(DR_BROOKS, NEW_YORK_FACILITY, "2026-03-08", "03:30"), slotAt(DR_BROOKS, NEW_YORK_FACILITY, "2026-03-09", "09:00")]);
    expect(days.map((day) => [day.date, day.clockChanges.map((change) => change.dayLengthMinutes)])).toEqual([
      ["2026-03-08", [1380]],
      ["2026-03-09", []],
    ]);
  });

  it("uses each facility's own local date: the same instant can be two different days", () => {
    // 00:30 in New York on the 2nd is 23:30 in Chicago on the 1st.
    const newYork = slotAt(DR_BROOKS, NEW_YORK_FACILITY, "2026-12-02", "00:30");
    const chicago = { ...newYork, facilityId: CHICAGO_FACILITY, startsAt: "2026-12-01T23:30:00-06:00", endsAt: "2026-12-01T23:45:00-06:00" };
    const days = group([newYork, chicago]);
    expect(days.map((day) => [day.date, day.rows.map((row) => row.zone)])).toEqual([
      ["2026-12-01", ["America/Chicago"]],
      ["2026-12-02", ["America/New_York"]],
    ]);
  });

  it("keeps one row per provider and facility, ordered by name, slots by time", () => {
    const days = group([
      slotAt(DR_BROOKS, NEW_YORK_FACILITY, "2026-12-01", "10:00"),
      slotAt(DR_ADAMS, NEW_YORK_FACILITY, "2026-12-01", "11:00"),
      slotAt(DR_BROOKS, NEW_YORK_FACILITY, "2026-12-01", "09:00"),
      slotAt(DR_BROOKS, CHICAGO_FACILITY, "2026-12-01", "08:00"),
    ]);
    expect(days[0]?.rows.map((row) => [NAMES[row.providerId], row.facilityId, row.slots.map((entry) => entry.slot.startsAt.slice(11, 16))])).toEqual([
      ["Adams", NEW_YORK_FACILITY, ["11:00"]],
      ["Brooks", NEW_YORK_FACILITY, ["09:00", "10:00"]],
      ["Brooks", CHICAGO_FACILITY, ["08:00"]],
    ]);
    expect(countSlots(days)).toBe(4);
  });

  it("finds the earliest slot across providers, whatever the row order", () => {
    const days = group([slotAt(DR_ADAMS, NEW_YORK_FACILITY, "2026-12-01", "11:00"), slotAt(DR_BROOKS, CHICAGO_FACILITY, "2026-12-01", "08:00")]);
    // 08:00 Chicago is 09:00 New York: earlier than Adams' 11:00 though Adams sorts first.
    expect(earliestSlot(days)?.slot.providerId).toBe(DR_BROOKS);
    expect(earliestSlot([])).toBeNull();
  });

  it("gives a slot one key whatever the id form or offset spelling", () => {
    const slot = slotAt(DR_BROOKS, NEW_YORK_FACILITY, "2026-12-01", "10:00");
    const same = { ...slot, providerId: "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa", startsAt: "2026-12-01T15:00:00.000Z" };
    expect(slotKey(same)).toBe(slotKey(slot));
  });
});

describe("a day's slots in time order, across providers", () => {
  const byTime = (slots: Slot[]) => groupSlotsByTime(slots, { zoneOf: (id) => ZONES[id], fallbackZone: "UTC" });

  it("puts 08:00 with Brooks above 16:00 with Adams, though Adams sorts first by name", () => {
    const days = byTime([slotAt(DR_ADAMS, NEW_YORK_FACILITY, "2026-12-01", "16:00"), slotAt(DR_BROOKS, NEW_YORK_FACILITY, "2026-12-01", "08:00"), slotAt(DR_ADAMS, NEW_YORK_FACILITY, "2026-12-01", "08:30")]);
    const rows = days[0]?.rows ?? [];
    expect(rows.map((row) => row.kind)).toEqual(["hour", "hour"]);
    expect(rows.flatMap((row) => row.slots.map((entry) => `${NAMES[entry.slot.providerId]} ${entry.slot.startsAt.slice(11, 16)}`))).toEqual(["Brooks 08:00", "Adams 08:30", "Adams 16:00"]);
  });

  it("orders New York and Chicago by the instant: 9:00 in New York shares its row with 8:00 in Chicago, and each row names the zones in it", () => {
    const days = byTime([
      slotAt(DR_ADAMS, NEW_YORK_FACILITY, "2026-12-01", "10:00"),
      slotAt(DR_BROOKS, CHICAGO_FACILITY, "2026-12-01", "09:00"),
      slotAt(DR_ADAMS, NEW_YORK_FACILITY, "2026-12-01", "09:00"),
      slotAt(DR_BROOKS, CHICAGO_FACILITY, "2026-12-01", "08:20"),
      slotAt(DR_ADAMS, NEW_YORK_FACILITY, "2026-12-01", "09:40"),
    ]);
    const rows = days[0]?.rows ?? [];
    // 13:00Z: New York 9:00, Chicago 8:20, New York 9:40; 14:00Z: Chicago 9:00 and New York 10:00, the same instant.
    expect(rows.map((row) => row.slots.map((entry) => entry.slot.startsAt))).toEqual([
      ["2026-12-01T09:00:00-05:00", "2026-12-01T08:20:00-06:00", "2026-12-01T09:40:00-05:00"],
      ["2026-12-01T09:00:00-06:00", "2026-12-01T10:00:00-05:00"],
    ]);
    expect(rows.map((row) => row.zones)).toEqual([
      ["America/New_York", "America/Chicago"],
      ["America/New_York", "America/Chicago"],
    ]);
    const instants = rows.flatMap((row) => row.slots.map((entry) => entry.startMs));
    expect(instants).toEqual([...instants].sort((a, b) => a - b));
  });

  it("splits an hour with more slots than a row holds into parts, in time order", () => {
    const providers = Array.from({ length: MAX_SLOTS_PER_HOUR_ROW + 2 }, (_, index) => `prv_${String(index).padStart(32, "0")}`);
    const rows = byTime(providers.map((providerId) => slotAt(providerId, NEW_YORK_FACILITY, "2026-12-01", "09:00")))[0]?.rows ?? [];
    expect(rows.map((row) => [row.part, row.slots.length])).toEqual([
      [{ index: 1, count: 2 }, MAX_SLOTS_PER_HOUR_ROW],
      [{ index: 2, count: 2 }, 2],
    ]);
    expect(new Set(rows.map((row) => row.key)).size).toBe(2);
  });

  it("keeps the repeated hour of New York's fall-back day as two rows, in time order", () => {
    const first = slotAt(DR_BROOKS, NEW_YORK_FACILITY, "2026-11-01", "01:30");
    const repeatedMs = Date.parse(first.startsAt) + 3_600_000;
    const repeated = { ...first, providerId: DR_ADAMS, startsAt: formatInstant(repeatedMs, "America/New_York"), endsAt: formatInstant(repeatedMs + 900_000, "America/New_York") };
    const rows = byTime([repeated, first])[0]?.rows ?? [];
    expect(rows.map((row) => row.slots.map((entry) => entry.slot.startsAt))).toEqual([["2026-11-01T01:30:00-04:00"], ["2026-11-01T01:30:00-05:00"]]);
  });

  it("counts and finds the earliest the same as the grouping by provider", () => {
    const slots = [slotAt(DR_ADAMS, CHICAGO_FACILITY, "2026-12-01", "07:00"), slotAt(DR_BROOKS, NEW_YORK_FACILITY, "2026-12-01", "07:30")];
    expect(countSlots(byTime(slots))).toBe(2);
    expect(earliestSlot(byTime(slots))?.slot.startsAt).toBe(earliestSlot(group(slots))?.slot.startsAt);
  });
});

describe("the first available slot", () => {
  it("leaves out the slots the user already holds", () => {
    const slots = [slotAt(DR_BROOKS, NEW_YORK_FACILITY, "2026-12-01", "08:00"), slotAt(DR_ADAMS, NEW_YORK_FACILITY, "2026-12-01", "08:30"), slotAt(DR_BROOKS, NEW_YORK_FACILITY, "2026-12-01", "08:20")];
    const days = group(slots);
    expect(earliestSlot(days)?.slot.startsAt).toBe(slots[0]?.startsAt);
    expect(earliestSlot(days, new Set([slotKey(slots[0]!)]))?.slot.startsAt).toBe(slots[2]?.startsAt);
  });
});
