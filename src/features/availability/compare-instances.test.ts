import { describe, expect, it } from "vitest";
import type { AvailabilityInstance } from "./expand-template.ts";
import { compareWithService } from "./compare-instances.ts";

const MORNING = "avt_0000000000000000000000000000000a";
const PROCEDURES = "avt_0000000000000000000000000000000b";
const PROVIDER = "prv_00000000000000000000000000000001";
const FACILITY = "fac_00000000000000000000000000000001";
const ZONE = "America/New_York";

function instance(templateId: string, startsAt: string, endsAt: string, concurrency = 1): AvailabilityInstance {
  return { templateId, providerId: PROVIDER, facilityId: FACILITY, startsAt, endsAt, concurrency };
}

const tuesdayMorning = instance(MORNING, "2026-12-01T08:00:00-05:00", "2026-12-01T12:00:00-05:00");
const thursdayMorning = instance(MORNING, "2026-12-03T08:00:00-05:00", "2026-12-03T12:00:00-05:00");
const tuesdayProcedures = instance(PROCEDURES, "2026-12-01T10:00:00-05:00", "2026-12-01T12:00:00-05:00", 2);

describe("service against expansion", () => {
  it("draws the expansion when the service agrees, whatever the offset notation", () => {
    const service = [
      { ...tuesdayMorning, templateId: "00000000-0000-0000-0000-00000000000a", startsAt: "2026-12-01T13:00:00Z", endsAt: "2026-12-01T17:00:00.000Z" },
      thursdayMorning,
      tuesdayProcedures,
    ];
    const result = compareWithService([tuesdayMorning, thursdayMorning, tuesdayProcedures], service, { zone: ZONE });
    expect(result.differingBandCount).toBe(0);
    expect(result.differingTemplateIds.size).toBe(0);
    expect(result.instances).toEqual([tuesdayMorning, tuesdayProcedures, thursdayMorning]);
  });

  it("draws the service's instances of a template that differs, and counts the bands", () => {
    const moved = { ...thursdayMorning, startsAt: "2026-12-03T09:00:00-05:00" };
    const extra = instance(MORNING, "2026-12-04T08:00:00-05:00", "2026-12-04T12:00:00-05:00");
    const result = compareWithService([tuesdayMorning, thursdayMorning, tuesdayProcedures], [tuesdayMorning, moved, extra, tuesdayProcedures], { zone: ZONE });
    // Thursday's band moved (one band, though two instances differ) and Friday's is new.
    expect(result.differingBandCount).toBe(2);
    expect([...result.differingTemplateIds]).toEqual(["00000000-0000-0000-0000-00000000000a"]);
    expect(result.instances).toEqual([tuesdayMorning, tuesdayProcedures, moved, extra]);
  });

  it("counts a band the service no longer has, and shows it gone", () => {
    const result = compareWithService([tuesdayMorning, tuesdayProcedures], [tuesdayMorning], { zone: ZONE });
    expect(result.differingBandCount).toBe(1);
    expect(result.instances).toEqual([tuesdayMorning]);
  });

  it("draws the service's instances of an unreadable template without counting them as differences", () => {
    const result = compareWithService([tuesdayMorning], [tuesdayMorning, tuesdayProcedures], { zone: ZONE, unreadableTemplateIds: new Set(["00000000-0000-0000-0000-00000000000b"]) });
    expect(result.differingBandCount).toBe(0);
    expect(result.instances).toEqual([tuesdayMorning, tuesdayProcedures]);
  });
});
