import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { AvailabilityInstance } from "#contract/clinic-api/schedule.ts";
import { expandTemplate } from "../expand-template.ts";
import { parseIndependentFixture, parseIndependentTemplates } from "./testing/fixture.ts";

// The expansion (DESIGN.md "Rules that come from the spec and must hold",
// time and recurrence; docs/decisions/0002-own-rule-evaluator.md) against
// instances that none of our TypeScript produced: expand_independent.py
// computed them from the same rules with python-dateutil and zoneinfo. Every
// instance must be equal, field by field and in order, in every window.
// scripts/test-unit.sh runs contract/recurrence under several host zones.

const fixture = parseIndependentFixture(readFileSync(new URL("./instances.json", import.meta.url), "utf8"));
const input = parseIndependentTemplates(readFileSync(new URL("./templates.json", import.meta.url), "utf8"));

/** One line per instance, every field in it, so a mismatch reads as a line diff. */
function line(instance: AvailabilityInstance): string {
  const minutes = (Date.parse(instance.endsAt) - Date.parse(instance.startsAt)) / 60_000;
  return `${instance.startsAt} → ${instance.endsAt} (${minutes} min) x${instance.concurrency} ${instance.templateId} ${instance.providerId} ${instance.facilityId}`;
}

describe("the expansion against the independent fixture", () => {
  it("is generated from the current templates.json", () => {
    expect(fixture.cases.map(({ name, template, windows }) => ({ name, template, windows: windows.map(({ startDate, endDate }) => ({ startDate, endDate })) }))).toEqual(input.cases);
  });

  it("covers the DST changes it is meant to", () => {
    const zones = new Set(fixture.cases.map(({ template }) => template.timezone));
    expect([...zones].sort()).toEqual(["America/New_York", "Australia/Lord_Howe", "Australia/Sydney"]);
    // In each zone, bands whose start and end carry different offsets: they cross a change.
    for (const zone of zones) {
      const crossing = fixture.cases
        .filter(({ template }) => template.timezone === zone)
        .flatMap(({ windows }) => windows.flatMap(({ instances }) => instances))
        .filter(({ startsAt, endsAt }) => startsAt.slice(19) !== endsAt.slice(19));
      expect(crossing.length, zone).toBeGreaterThanOrEqual(4);
    }
  });

  it.each(fixture.cases.map((fixtureCase) => [fixtureCase.name, fixtureCase] as const))("%s", (_name, { template, windows }) => {
    for (const { startDate, endDate, instances } of windows) {
      const ours = expandTemplate(template, { startDate, endDate });
      const label = `${template.name}, ${startDate} to ${endDate}`;
      expect(ours.map(line), label).toEqual(instances.map(line));
      expect(ours, label).toEqual(instances);
    }
  });
});
