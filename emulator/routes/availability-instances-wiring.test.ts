import { describe, expect, it } from "vitest";
import { addDays, dayLengthMinutes, todayIn } from "#contract/time/zoned-time.ts";
import { createTestEmulator, TEST_NOW } from "../testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID } from "../world/identities.ts";
import { expandTemplate } from "#contract/recurrence/expand-template.ts";

// Wiring, not correctness (moved here from src/: the SPA's tests do not
// depend on the emulator). The emulator computes its `instances` with the
// same contract/recurrence/expand-template.ts the SPA uses (DESIGN.md: one
// expansion in contract/ that the emulator, the BFF and the SPA share;
// docs/decisions/0002-own-rule-evaluator.md), so agreement here cannot show
// that the expansion is right. It shows that the emulator's
// availability-templates route (DESIGN.md's assumed contract: `startDate` and
// `endDate` inclusive, the facility's local dates; seed 001 "Schedule": the
// instances are the occurrences inside the window) hands every seeded
// template and window to that module and returns what it gives, over 8 weeks
// and over 8 weeks around each organization's next DST change. Correctness is
// checked against instances none of our code produced:
// contract/recurrence/independent-fixture/, and through the view's runtime
// comparison in compare-instances.independent.test.ts.

const test = createTestEmulator();
const key = (instance: { templateId: string; startsAt: string; endsAt: string; concurrency: number }) => `${instance.templateId}|${instance.startsAt}|${instance.endsAt}|${instance.concurrency}`;

function nextDstChange(zone: string, from: string): string {
  for (let day = 0; day < 400; day += 1) {
    const date = addDays(from, day);
    if (dayLengthMinutes(date, zone) !== 1440) return date;
  }
  throw new Error(`no DST change in ${zone}`);
}

async function expectAgreement(organizationId: string, window: { startDate: string; endDate: string }) {
  const data = await test.get("GET /v3/schedule/availability-templates", { organizationId, query: window });
  expect(data.templates.length).toBeGreaterThan(0);
  const ours = data.templates.flatMap((template) => expandTemplate(template, window)).map(key).sort();
  expect(data.instances.map(key).sort()).toEqual(ours);
  return ours.length;
}

describe("the emulator's availability route serves the shared expansion's instances (wiring, not correctness)", () => {
  it.each([ORG_A_ID, ORG_B_ID])("for every template of %s over the next 8 weeks", async (organizationId) => {
    const start = todayIn("UTC", TEST_NOW);
    expect(await expectAgreement(organizationId, { startDate: start, endDate: addDays(start, 55) })).toBeGreaterThan(50);
  });

  it.each([
    [ORG_A_ID, "America/New_York"],
    [ORG_B_ID, "Australia/Lord_Howe"],
    [ORG_B_ID, "Australia/Sydney"],
  ])("for %s over 8 weeks around the next DST change in %s", async (organizationId, zone) => {
    const change = nextDstChange(zone, todayIn(zone, TEST_NOW));
    expect(await expectAgreement(organizationId, { startDate: addDays(change, -28), endDate: addDays(change, 27) })).toBeGreaterThan(0);
  });

});
