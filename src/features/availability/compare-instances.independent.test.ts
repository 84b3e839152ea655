import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseIndependentFixture, type IndependentFixture } from "#contract/recurrence/independent-fixture/testing/fixture.ts";
import { cachedIdKey as idKey } from "#contract/ids.ts";
import { compareWithService } from "./compare-instances.ts";
import { expandTemplate, type AvailabilityInstance } from "./expand-template.ts";

// The view's runtime check (compare-instances.ts; docs/decisions/0007-view-behaviour.md)
// fed with instances that none of our code produced: the independent fixture
// of contract/recurrence/independent-fixture/ (DESIGN.md's expansion rules,
// computed with python-dateutil and zoneinfo) stands in for a real service.
// Unaltered, it agrees with our expansion; with one instance moved, dropped or
// added on a DST day, the comparison names exactly that template and that band.

const fixture = parseIndependentFixture(readFileSync(new URL("../../../contract/recurrence/independent-fixture/instances.json", import.meta.url), "utf8"));

type FixtureCase = IndependentFixture["cases"][number];

function casesIn(zone: string): FixtureCase[] {
  return fixture.cases.filter(({ template }) => template.timezone === zone);
}

function caseNamed(zone: string, prefix: string): FixtureCase {
  const found = casesIn(zone).find(({ name }) => name.startsWith(prefix));
  if (found === undefined) throw new Error(`the fixture has no ${zone} template named "${prefix}…"`);
  return found;
}

/** Our expansion of every fixture template of a zone over each of its windows. */
function expandedIn(zone: string): AvailabilityInstance[] {
  return casesIn(zone).flatMap(({ template, windows }) => windows.flatMap((window) => expandTemplate(template, window)));
}

/** What the stand-in service answers: the fixture's instances of the zone's templates. */
function serviceIn(zone: string): AvailabilityInstance[] {
  return casesIn(zone).flatMap(({ windows }) => windows.flatMap(({ instances }) => instances));
}

/** The fixture instance of a template that starts on a local date (instances carry their local offset). */
function instanceOn(fixtureCase: FixtureCase, date: string): AvailabilityInstance {
  const found = fixtureCase.windows.flatMap(({ instances }) => instances).find(({ startsAt }) => startsAt.startsWith(date));
  if (found === undefined) throw new Error(`"${fixtureCase.name}" has no instance on ${date}`);
  return found;
}

/** The drawn instances as sorted lines: what the view shows, order aside. */
function drawn(instances: readonly AvailabilityInstance[]): string[] {
  return instances.map(({ templateId, startsAt, endsAt, concurrency }) => `${idKey(templateId)} ${Date.parse(startsAt)} ${Date.parse(endsAt)} x${concurrency}`).sort();
}

interface Plant {
  /** The fixture template whose service instances are altered. */
  template: string;
  alter: (service: AvailabilityInstance[], fixtureCase: FixtureCase) => AvailabilityInstance[];
}

const HOUR_MS = 3_600_000;

/** Moves the start of the template's instance on `date` one hour later (as a service that read the local time with the other offset would). */
function shiftStart(date: string): Plant["alter"] {
  return (service, fixtureCase) => {
    const victim = instanceOn(fixtureCase, date);
    return service.map((instance) => (instance === victim ? { ...instance, startsAt: new Date(Date.parse(instance.startsAt) + HOUR_MS).toISOString() } : instance));
  };
}

/** Leaves out the template's instance on `date`. */
function drop(date: string): Plant["alter"] {
  return (service, fixtureCase) => {
    const victim = instanceOn(fixtureCase, date);
    return service.filter((instance) => instance !== victim);
  };
}

/** Adds an instance the rules drop (a band wholly inside the skipped time), as a service that kept it would. */
function add(startsAt: string, endsAt: string): Plant["alter"] {
  return (service, { template }) => [...service, { templateId: template.id, providerId: template.providerId, facilityId: template.facilityId, startsAt, endsAt, concurrency: template.concurrency }];
}

interface ZonePlants {
  zone: string;
  moved: Plant;
  dropped: Plant;
  added: Plant;
}

// One DST day per zone: New York springs forward on 2026-03-08, Sydney and
// Lord Howe on 2026-10-04; Lord Howe falls back 30 minutes on 2026-04-05.
const zones: ZonePlants[] = [
  {
    zone: "America/New_York",
    moved: { template: "new-york Sunday night 01:00-04:00", alter: shiftStart("2026-03-08") },
    dropped: { template: "new-york daily start 02:30 inside the skipped hour", alter: drop("2026-03-08") },
    added: { template: "new-york 02:00-03:00, wholly in the skipped hour", alter: add("2026-03-08T03:00:00-04:00", "2026-03-08T04:00:00-04:00") },
  },
  {
    zone: "Australia/Sydney",
    moved: { template: "sydney Sunday night 01:00-04:00", alter: shiftStart("2026-10-04") },
    dropped: { template: "sydney Sunday 02:30-04:00", alter: drop("2026-10-04") },
    added: { template: "sydney first Sunday of each month 02:00-03:00", alter: add("2026-10-04T03:00:00+11:00", "2026-10-04T04:00:00+11:00") },
  },
  {
    zone: "Australia/Lord_Howe",
    moved: { template: "lord-howe Sunday 01:00-03:00", alter: shiftStart("2026-04-05") },
    dropped: { template: "lord-howe Sunday 02:15-03:00", alter: drop("2026-10-04") },
    added: { template: "lord-howe Sunday 02:00-02:30, exactly the skipped half hour", alter: add("2026-10-04T02:30:00+11:00", "2026-10-04T03:00:00+11:00") },
  },
];

/** Applies plants to the zone's service answer; returns it and what the view must then draw. */
function planted(zone: string, plants: readonly Plant[]): { service: AvailabilityInstance[]; expectedDrawn: string[]; templateKeys: string[] } {
  let service = serviceIn(zone);
  const templateKeys: string[] = [];
  for (const plant of plants) {
    const fixtureCase = caseNamed(zone, plant.template);
    service = plant.alter(service, fixtureCase);
    templateKeys.push(idKey(fixtureCase.template.id));
  }
  const altered = new Set(templateKeys);
  // Agreeing templates are drawn from the expansion, differing ones from the service.
  const expectedDrawn = drawn([...expandedIn(zone).filter(({ templateId }) => !altered.has(idKey(templateId))), ...service.filter(({ templateId }) => altered.has(idKey(templateId)))]);
  return { service, expectedDrawn, templateKeys: templateKeys.sort() };
}

describe.each(zones)("the view's comparison against the independent fixture in $zone", ({ zone, moved, dropped, added }) => {
  it("finds no difference in the unaltered fixture", () => {
    const ours = expandedIn(zone);
    const result = compareWithService(ours, serviceIn(zone), { zone });
    expect(ours.length).toBeGreaterThan(20);
    expect(result.differingBandCount).toBe(0);
    expect([...result.differingTemplateIds]).toEqual([]);
    expect(drawn(result.instances)).toEqual(drawn(ours));
  });

  it.each([
    ["a start moved by an hour", moved],
    ["a dropped instance", dropped],
    ["an added instance", added],
  ] as const)("reports exactly %s: one band of one template, drawn from the service", (_what, plant) => {
    const { service, expectedDrawn, templateKeys } = planted(zone, [plant]);
    const result = compareWithService(expandedIn(zone), service, { zone });
    expect([...result.differingTemplateIds].sort()).toEqual(templateKeys);
    expect(result.differingBandCount).toBe(1);
    expect(drawn(result.instances)).toEqual(expectedDrawn);
  });

  it("reports all three at once: three templates, three bands", () => {
    const { service, expectedDrawn, templateKeys } = planted(zone, [moved, dropped, added]);
    const result = compareWithService(expandedIn(zone), service, { zone });
    expect(templateKeys).toHaveLength(3);
    expect([...result.differingTemplateIds].sort()).toEqual(templateKeys);
    expect(result.differingBandCount).toBe(3);
    expect(drawn(result.instances)).toEqual(expectedDrawn);
  });
});
