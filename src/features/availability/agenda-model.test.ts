import { describe, expect, it } from "vitest";
import { buildAgenda } from "./agenda-model.ts";
import type { AvailabilityTemplate } from "./expand-template.ts";
import { buildWeekModel } from "./week-model.ts";
import { weekWindow } from "./week-window.ts";
import { availabilityTemplate } from "./testing/template-fixture.ts";

// The agenda stacks a provider's overlapping bands with their peak capacity,
// keeps providers apart, lists each band once on the day it starts, and
// leaves out bands carried in from the week before.

const ZONE = "America/New_York";
const OKAFOR = "prv_000000000000000000000000000000c2";

const template = availabilityTemplate;

const weekly = (start: string, day: string) => ({ rrule: `DTSTART;TZID=${ZONE}:20240304T${start.replace(":", "")}00\nRRULE:FREQ=WEEKLY;BYDAY=${day}`, until: null });
const WEEK = weekWindow("2026-12-01", ZONE);
const names = new Map([
  ["00000000-0000-0000-0000-0000000000b1", "Brooks, Ada"],
  ["00000000-0000-0000-0000-0000000000c2", "Okafor, Chi"],
]);
const providerName = (key: string) => names.get(key) ?? key;

function agenda(templates: AvailabilityTemplate[]) {
  const model = buildWeekModel({ templates, serviceInstances: null, week: WEEK, providerKey: null, showInactive: true });
  return buildAgenda(model.bands, WEEK, providerName);
}

describe("buildAgenda", () => {
  it("stacks one provider's overlapping bands with the most bookable at once, and keeps another provider's apart", () => {
    const days = agenda([
      template("1", { recurrence: weekly("08:00", "TU") }),
      template("2", { name: "Procedures", startTimeLocal: "10:00", endTimeLocal: "13:00", concurrency: 2, recurrence: weekly("10:00", "TU") }),
      template("3", { providerId: OKAFOR, name: "Walk-in", startTimeLocal: "09:00", endTimeLocal: "11:00", recurrence: weekly("09:00", "TU") }),
    ]);
    const tuesday = days.find((day) => day.date === "2026-12-01");
    expect(tuesday?.stacks.map((stack) => [providerName(stack.providerKey), stack.bands.length, stack.peakCapacity])).toEqual([
      ["Brooks, Ada", 2, 3],
      ["Okafor, Chi", 1, 1],
    ]);
    const brooks = tuesday?.stacks[0];
    expect(brooks && [new Date(brooks.startMs).toISOString(), new Date(brooks.endMs).toISOString()]).toEqual(["2026-12-01T13:00:00.000Z", "2026-12-01T18:00:00.000Z"]);
    expect(brooks?.overlaps.map((span) => [new Date(span.startMs).toISOString(), span.total])).toEqual([["2026-12-01T15:00:00.000Z", 3]]);
    expect(days.filter((day) => day.date !== "2026-12-01").every((day) => day.stacks.length === 0)).toBe(true);
  });

  it("bands that only touch are two stacks; an inactive band adds no capacity", () => {
    const days = agenda([
      template("1", { recurrence: weekly("08:00", "WE") }),
      template("2", { name: "Afternoon", startTimeLocal: "12:00", endTimeLocal: "14:00", recurrence: weekly("12:00", "WE") }),
      template("3", { name: "Retired", startTimeLocal: "09:00", endTimeLocal: "10:00", concurrency: 5, active: false, recurrence: weekly("09:00", "WE") }),
    ]);
    const wednesday = days.find((day) => day.date === "2026-12-02");
    expect(wednesday?.stacks.map((stack) => [stack.bands.length, stack.peakCapacity])).toEqual([
      [2, 1],
      [1, 1],
    ]);
  });

  it("lists a band crossing midnight once, on the day it starts, and leaves out one carried in from the week before", () => {
    const days = agenda([template("1", { name: "Night", startTimeLocal: "22:00", endTimeLocal: "02:00", recurrence: weekly("22:00", "SU") })]);
    expect(days.map((day) => day.stacks.length)).toEqual([0, 0, 0, 0, 0, 0, 1]);
  });
});
