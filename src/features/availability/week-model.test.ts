import { describe, expect, it } from "vitest";
import type { AvailabilityTemplate } from "./expand-template.ts";
import { expandTemplate } from "./expand-template.ts";
import { buildWeekModel, groupIntoGrids } from "./week-model.ts";
import { weekWindow } from "./week-window.ts";
import { availabilityTemplate } from "./testing/template-fixture.ts";

const ZONE = "America/New_York";
const OKAFOR = "prv_000000000000000000000000000000c2";

const template = (id: string, overrides: Partial<AvailabilityTemplate> = {}): AvailabilityTemplate =>
  availabilityTemplate(id, { recurrence: { rrule: `DTSTART;TZID=${ZONE}:20240304T080000\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,TH,FR`, until: null }, ...overrides });

const MORNING = template("1");
const PROCEDURES = template("2", { name: "Procedures", startTimeLocal: "10:00", concurrency: 2, recurrence: { rrule: `DTSTART;TZID=${ZONE}:20240305T100000\nRRULE:FREQ=WEEKLY;BYDAY=TU,TH`, until: null } });
const RETIRED = template("3", { name: "Friday clinic (retired)", active: false, recurrence: { rrule: "RRULE:FREQ=WEEKLY;BYDAY=FR", until: null } });
const EVENING = template("4", { providerId: OKAFOR, name: "Evening telehealth", startTimeLocal: "22:00", endTimeLocal: "02:00", recurrence: { rrule: `DTSTART;TZID=${ZONE}:20240303T220000\nRRULE:FREQ=WEEKLY;BYDAY=SU,TU`, until: null } });
const UNREADABLE = template("5", { providerId: OKAFOR, name: "Hourly", recurrence: { rrule: "RRULE:FREQ=HOURLY", until: null } });
const WEEK = weekWindow("2026-12-01", ZONE);
const names = new Map([
  ["00000000-0000-0000-0000-0000000000b1", "Brooks, Ada"],
  ["00000000-0000-0000-0000-0000000000c2", "Okafor, Chi"],
]);
const providerName = (key: string) => names.get(key) ?? key;

describe("the week model", () => {
  it("draws the expansion while the service's answer loads, with carried-in bands and unreadable rules noted", () => {
    const model = buildWeekModel({ templates: [MORNING, PROCEDURES, RETIRED, EVENING, UNREADABLE], serviceInstances: null, week: WEEK, providerKey: null, showInactive: false });
    expect(model.comparison).toBeNull();
    expect(model.templates.map((entry) => [entry.template.name, entry.unreadableReason === null])).toEqual([
      ["Morning clinic", true],
      ["Procedures", true],
      ["Friday clinic (retired)", true],
      ["Evening telehealth", true],
      ["Hourly", false],
    ]);
    const carried = model.bands.filter((band) => band.isCarriedIn);
    expect(carried.map((band) => band.instance.startsAt)).toEqual(["2026-11-29T22:00:00-05:00"]);
    expect(model.bands.filter((band) => !band.isCarriedIn)).toHaveLength(4 + 2 + 2);
    expect(model.bands.some((band) => band.isInactive)).toBe(false);
  });

  it("previews inactive templates greyed when asked", () => {
    const model = buildWeekModel({ templates: [MORNING, RETIRED], serviceInstances: [], week: WEEK, providerKey: null, showInactive: true });
    expect(model.bands.filter((band) => band.isInactive).map((band) => band.date)).toEqual(["2026-12-04"]);
  });

  it("draws the service's instances of a template where they differ from the expansion", () => {
    const window = { startDate: WEEK.startDate, endDate: WEEK.endDate };
    const service = [...expandTemplate(MORNING, window).filter((instance) => !instance.startsAt.startsWith("2026-12-04")), ...expandTemplate(PROCEDURES, window)];
    const model = buildWeekModel({ templates: [MORNING, PROCEDURES], serviceInstances: service, week: WEEK, providerKey: null, showInactive: false });
    expect(model.comparison?.differingBandCount).toBe(1);
    const morning = model.bands.filter((band) => band.entry?.template.name === "Morning clinic");
    expect(morning.map((band) => band.date)).toEqual(["2026-11-30", "2026-12-01", "2026-12-03"]);
    expect(morning.every((band) => band.isFromService)).toBe(true);
    expect(model.bands.filter((band) => band.entry?.template.name === "Procedures").every((band) => !band.isFromService)).toBe(true);
  });

  it("keeps to one provider when asked, comparing only theirs", () => {
    const window = { startDate: WEEK.startDate, endDate: WEEK.endDate };
    const model = buildWeekModel({ templates: [MORNING, EVENING], serviceInstances: [...expandTemplate(MORNING, window)], week: WEEK, providerKey: "00000000-0000-0000-0000-0000000000b1", showInactive: false });
    expect(model.templates.map((entry) => entry.template.name)).toEqual(["Morning clinic"]);
    expect(model.comparison?.differingBandCount).toBe(0);
  });

  it("groups into a grid per provider, by name, or one for the facility", () => {
    const model = buildWeekModel({ templates: [EVENING, PROCEDURES, MORNING], serviceInstances: null, week: WEEK, providerKey: null, showInactive: false });
    const perProvider = groupIntoGrids(model, WEEK, { mode: "provider", providerName });
    expect(perProvider.map((grid) => [grid.providerKey, grid.templates.map((entry) => entry.template.name)])).toEqual([
      ["00000000-0000-0000-0000-0000000000b1", ["Morning clinic", "Procedures"]],
      ["00000000-0000-0000-0000-0000000000c2", ["Evening telehealth"]],
    ]);
    expect(perProvider[0]?.days[1]?.overlaps.map((span) => span.total)).toEqual([3]);
    const facility = groupIntoGrids(model, WEEK, { mode: "facility", providerName });
    expect(facility).toHaveLength(1);
    expect(facility[0]?.templates.map((entry) => entry.template.name)).toEqual(["Morning clinic", "Procedures", "Evening telehealth"]);
    // Okafor's Tuesday evening runs into Wednesday: a continuation there.
    expect(facility[0]?.days[2]?.segments.filter((segment) => segment.isContinuation)).toHaveLength(1);
  });
});
