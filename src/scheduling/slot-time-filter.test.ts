import { describe, expect, it } from "vitest";
import { localToInstant } from "#contract/time/zoned-time.ts";
import { describeTimeFilter, matchesTimeFilter, NO_TIME_FILTER, timeDraftOf, timeFilterFromDraft, timeFilterOf, toTimeFilterParams } from "./slot-time-filter.ts";

const at = (date: string, time: string, zone: string) => localToInstant(date, time, zone);

describe("times of day and weekdays", () => {
  it("reads each slot on its own facility's clock", () => {
    const afterFour = timeFilterOf({ startsFrom: "16:00" });
    // 16:30 in Chicago is 17:30 in New York; 15:30 in Chicago is 16:30 in New York.
    expect(matchesTimeFilter(at("2026-12-01", "16:30", "America/Chicago"), "America/Chicago", afterFour)).toBe(true);
    expect(matchesTimeFilter(at("2026-12-01", "15:30", "America/Chicago"), "America/Chicago", afterFour)).toBe(false);
    expect(matchesTimeFilter(at("2026-12-01", "15:59", "America/New_York"), "America/New_York", afterFour)).toBe(false);
    expect(matchesTimeFilter(at("2026-12-01", "16:00", "America/New_York"), "America/New_York", afterFour)).toBe(true);
  });

  it("keeps mornings up to, not including, the end time; and the weekdays on the local date", () => {
    const mornings = timeFilterOf({ startsBefore: "12:00", days: "tue,wed,thu" });
    expect(matchesTimeFilter(at("2026-12-01", "11:45", "America/New_York"), "America/New_York", mornings)).toBe(true);
    expect(matchesTimeFilter(at("2026-12-01", "12:00", "America/New_York"), "America/New_York", mornings)).toBe(false);
    // Monday 30 November is left out; 23:30 Tuesday in Los Angeles is already Wednesday in UTC, still Tuesday there.
    expect(matchesTimeFilter(at("2026-11-30", "09:00", "America/New_York"), "America/New_York", mornings)).toBe(false);
    expect(matchesTimeFilter(at("2026-12-01", "23:30", "America/Los_Angeles"), "America/Los_Angeles", timeFilterOf({ days: "tue" }))).toBe(true);
  });

  it("takes the repeated hour of a fall-back day by its wall time", () => {
    const early = timeFilterOf({ startsBefore: "02:00" });
    const firstOneThirty = at("2026-11-01", "01:30", "America/New_York");
    expect(matchesTimeFilter(firstOneThirty, "America/New_York", early)).toBe(true);
    expect(matchesTimeFilter(firstOneThirty + 3_600_000, "America/New_York", early)).toBe(true);
  });

  it("round-trips through the URL, drops what does not parse, and reads every day ticked as no filter", () => {
    const filter = timeFilterOf({ startsFrom: "08:00", startsBefore: "25:00", days: "thu,tue,xyz,wed" });
    expect(filter).toEqual({ startsFrom: "08:00", startsBefore: null, weekdays: [1, 2, 3] });
    expect(timeFilterOf(toTimeFilterParams(filter))).toEqual(filter);
    expect(timeFilterOf({ days: "mon,tue,wed,thu,fri,sat,sun" })).toEqual(NO_TIME_FILTER);
    expect(toTimeFilterParams(NO_TIME_FILTER)).toEqual({ startsFrom: undefined, startsBefore: undefined, days: undefined });
  });

  it("says the narrowing in words", () => {
    expect(describeTimeFilter(NO_TIME_FILTER, "en-GB")).toBeNull();
    expect(describeTimeFilter(timeFilterOf({ startsFrom: "16:00", days: "tue,wed,thu" }), "en-GB")).toBe("starting 16:00 or later, Tue–Thu");
    expect(describeTimeFilter(timeFilterOf({ startsBefore: "12:00", days: "mon,fri" }), "en-GB")).toBe("starting before 12:00, Mon, Fri");
    expect(describeTimeFilter(timeFilterOf({ startsFrom: "12:00", startsBefore: "17:00" }), "en-US")).toBe("starting 12:00 PM–5:00 PM");
  });

  it("checks the form's draft and names the problem", () => {
    expect(timeFilterFromDraft({ startsFrom: "16:00", startsBefore: "", weekdays: [1, 3] })).toEqual({ filter: { startsFrom: "16:00", startsBefore: null, weekdays: [1, 3] }, error: null });
    expect(timeFilterFromDraft({ startsFrom: "16:00", startsBefore: "09:00", weekdays: [] }).error).toBe("“Starting before” must be later than “Starting from”.");
    expect(timeFilterFromDraft({ startsFrom: "4pm", startsBefore: "", weekdays: [] }).error).toMatch(/^Enter times as hours and minutes/);
    expect(timeFilterFromDraft(timeDraftOf(NO_TIME_FILTER))).toEqual({ filter: NO_TIME_FILTER, error: null });
  });
});
