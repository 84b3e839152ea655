import { describe, expect, it } from "vitest";
import { clockShiftOn, currentWeekStart, isLocalDate, mondayOf, shiftWeek, wallMinutesFrom, weekWindow } from "./week-window.ts";

describe("the week window", () => {
  it("runs Monday to Sunday, whatever day it is asked for", () => {
    expect(mondayOf("2026-10-01")).toBe("2026-09-28");
    expect(mondayOf("2026-09-28")).toBe("2026-09-28");
    expect(mondayOf("2026-10-04")).toBe("2026-09-28");
    const week = weekWindow("2026-10-04", "Australia/Lord_Howe");
    expect(week.startDate).toBe("2026-09-28");
    expect(week.endDate).toBe("2026-10-04");
    expect(week.days.map((day) => day.date)).toEqual(["2026-09-28", "2026-09-29", "2026-09-30", "2026-10-01", "2026-10-02", "2026-10-03", "2026-10-04"]);
    expect(week.days.map((day) => day.weekday)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("pages by whole weeks across months and years", () => {
    expect(shiftWeek("2026-12-30", 1)).toBe("2027-01-04");
    expect(shiftWeek("2027-01-06", -1)).toBe("2026-12-28");
    expect(shiftWeek("2026-10-01", 0)).toBe("2026-09-28");
  });

  it("finds this week in the facility's zone, not the machine's", () => {
    // 14:00 UTC on Sunday 4 October is already Monday 01:00 on Lord Howe Island, still Sunday in New York.
    const now = Date.parse("2026-10-04T14:00:00Z");
    expect(currentWeekStart("Australia/Lord_Howe", now)).toBe("2026-10-05");
    expect(currentWeekStart("America/New_York", now)).toBe("2026-09-28");
  });

  it("gives each day its real length and bounds across DST", () => {
    const lordHowe = weekWindow("2026-10-04", "Australia/Lord_Howe");
    expect(lordHowe.days.map((day) => day.lengthMinutes)).toEqual([1440, 1440, 1440, 1440, 1440, 1440, 1410]);
    const sunday = lordHowe.days[6];
    expect(sunday?.startMs).toBe(Date.parse("2026-10-03T13:30:00Z"));
    expect(sunday?.endMs).toBe(Date.parse("2026-10-04T13:00:00Z"));
    expect(weekWindow("2026-04-05", "Australia/Lord_Howe").days[6]?.lengthMinutes).toBe(1470);
    expect(weekWindow("2026-03-08", "America/New_York").days[6]?.lengthMinutes).toBe(1380);
    expect(weekWindow("2026-11-01", "America/New_York").days[6]?.lengthMinutes).toBe(1500);
    // Consecutive days touch: no instant is lost or counted twice.
    for (const [index, day] of lordHowe.days.entries()) {
      const next = lordHowe.days[index + 1];
      if (next) expect(day.endMs).toBe(next.startMs);
    }
  });

  it("locates each clock change on the wall clock", () => {
    expect(clockShiftOn("2026-10-04", "Australia/Lord_Howe")).toMatchObject({ kind: "gap", fromMinute: 120, toMinute: 150 });
    expect(clockShiftOn("2026-04-05", "Australia/Lord_Howe")).toMatchObject({ kind: "fold", fromMinute: 90, toMinute: 120 });
    expect(clockShiftOn("2026-03-08", "America/New_York")).toMatchObject({ kind: "gap", fromMinute: 120, toMinute: 180, atMs: Date.parse("2026-03-08T07:00:00Z") });
    expect(clockShiftOn("2026-11-01", "America/New_York")).toMatchObject({ kind: "fold", fromMinute: 60, toMinute: 120 });
    expect(clockShiftOn("2026-10-05", "Australia/Lord_Howe")).toBeNull();
    // Santiago moves its clocks at midnight: the day starts when the gap ends.
    expect(clockShiftOn("2026-09-06", "America/Santiago")).toMatchObject({ kind: "gap", fromMinute: 0, toMinute: 60 });
    expect(clockShiftOn("2026-04-04", "America/Santiago")).toMatchObject({ kind: "fold", fromMinute: 1380, toMinute: 1440 });
  });

  it("measures wall-clock minutes from a local midnight", () => {
    expect(wallMinutesFrom("2026-10-04", Date.parse("2026-10-03T17:00:00Z"), "Australia/Lord_Howe")).toBe(240);
    expect(wallMinutesFrom("2026-10-04", Date.parse("2026-10-03T14:30:00Z"), "Australia/Lord_Howe")).toBe(60);
    expect(wallMinutesFrom("2026-10-03", Date.parse("2026-10-03T14:30:00Z"), "Australia/Lord_Howe")).toBe(1500);
  });

  it("checks dates", () => {
    expect(isLocalDate("2026-02-29")).toBe(false);
    expect(isLocalDate("2028-02-29")).toBe(true);
    expect(isLocalDate("2026-1-1")).toBe(false);
  });
});
