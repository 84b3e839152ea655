import { describe, expect, it } from "vitest";
import { prepareRequest } from "./upstream-request.ts";

// Seed 001 "Common rules", "Schedule", "Versioning"; DESIGN.md "Upstream"
// (lists comma-separated) and "The BFF's API" (only server/clinic converts ids).

const ORG = "3B0F6A2E-5D41-4C8A-9E7B-1F2D3C4B5A61";
const FAC_RAW = "0f1e2d3c-4b5a-4697-8877-665544332211";
const FAC = "fac_0f1e2d3c4b5a46978877665544332211";
const PRV_RAW = "11111111-2222-4333-8444-555555555555";
const PRV = "prv_11111111222243338444555555555555";

describe("prepareRequest", () => {
  it("sets the organization header value from organizationId (raw UUID, lower-cased), and none for the installations list", () => {
    expect(prepareRequest("GET /v1/providers", { organizationId: ORG }).organizationId).toBe(ORG.toLowerCase());
    expect(prepareRequest("GET /v1/installations", { organizationId: ORG }).organizationId).toBeNull();
    expect(() => prepareRequest("GET /v1/providers", {})).toThrow("organizationId is required");
    expect(() => prepareRequest("GET /v1/providers", { organizationId: "org_1" })).toThrow("raw UUID");
  });

  it("sends provider and facility id lists comma-separated, in the schedule's prefixed form", () => {
    const prepared = prepareRequest("GET /v2/schedule/slots", {
      organizationId: ORG,
      query: { appointmentTypeId: "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee", providerIds: [PRV_RAW, PRV], facilityIds: `${FAC_RAW}, ${FAC}`, startDate: "2026-11-23", endDate: "2026-11-30", isNewPatient: false, slotLengthMinutes: 30 },
    });
    const search = new URL(prepared.target, "http://x").searchParams;
    expect(search.get("providerIds")).toBe(`${PRV},${PRV}`);
    expect(search.get("facilityIds")).toBe(`${FAC},${FAC}`);
    expect(search.get("appointmentTypeId")).toBe("atp_aaaaaaaabbbb4ccc8dddeeeeeeeeeeee");
    expect(search.get("isNewPatient")).toBe("false");
    expect(search.get("slotLengthMinutes")).toBe("30");
  });

  it("converts only ids of the expected kind, and leaves free text alone", () => {
    const prepared = prepareRequest("GET /v3/schedule/availability-templates", { organizationId: ORG, query: { facilityId: "pat_0f1e2d3c4b5a46978877665544332211", providerId: PRV_RAW, startDate: "2026-11-23", endDate: "2026-11-30" } });
    const search = new URL(prepared.target, "http://x").searchParams;
    expect(search.get("facilityId")).toBe("pat_0f1e2d3c4b5a46978877665544332211");
    expect(search.get("providerId")).toBe(PRV);
    const patients = prepareRequest("GET /v1/patients", { organizationId: ORG, query: { search: "Smith, Jo" } });
    expect(new URL(patients.target, "http://x").searchParams.get("search")).toBe("Smith, Jo");
  });

  it("puts path parameters in raw form and URL-encodes them", () => {
    expect(prepareRequest("GET /v1/facilities/{id}", { organizationId: ORG, params: { id: FAC } }).target).toBe(`/v1/facilities/${FAC_RAW}`);
    expect(prepareRequest("GET /v1/notes/{noteId}", { organizationId: ORG, params: { noteId: "a/b?c" } }).target).toBe("/v1/notes/a%2Fb%3Fc");
    expect(() => prepareRequest("GET /v1/notes/{noteId}", { organizationId: ORG })).toThrow("path parameter noteId is required");
  });

  it("converts the hold body's ids to the schedule's form and keeps other fields", () => {
    const prepared = prepareRequest("POST /v4/schedule/holds", {
      organizationId: ORG,
      body: { providerId: PRV_RAW, facilityId: FAC_RAW, appointmentTypeId: "atp_AAAAAAAABBBB4CCC8DDDEEEEEEEEEEEE", startsAt: "2026-11-23T09:00:00-05:00", endsAt: "2026-11-23T09:30:00-05:00" },
    });
    expect(JSON.parse(prepared.bodyText ?? "")).toEqual({
      providerId: PRV,
      facilityId: FAC,
      appointmentTypeId: "atp_aaaaaaaabbbb4ccc8dddeeeeeeeeeeee",
      startsAt: "2026-11-23T09:00:00-05:00",
      endsAt: "2026-11-23T09:30:00-05:00",
    });
  });

  it("the same read in another query order has the same key; consistency=strong only goes out where the route takes it", () => {
    const a = prepareRequest("GET /v1/providers", { organizationId: ORG, query: { page: 1, pageSize: 100, hidden: undefined } });
    const b = prepareRequest("GET /v1/providers", { organizationId: ORG.toLowerCase(), query: { pageSize: 100, page: 1 } });
    expect(a.key).toBe(b.key);
    const strong = prepareRequest("GET /v2/schedule/slots", { organizationId: ORG, query: { appointmentTypeId: "x" }, consistency: "strong" });
    expect(strong.strong).toBe(true);
    expect(strong.target).toContain("consistency=strong");
    const templates = prepareRequest("GET /v3/schedule/availability-templates", { organizationId: ORG, query: { startDate: "2026-11-23" }, consistency: "strong" });
    expect(templates.strong).toBe(true);
    expect(templates.target).not.toContain("consistency");
  });
});
