import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { availabilityResponse } from "#contract/app-api/availability.ts";
import { appErrorBody } from "#contract/app-api/errors.ts";
import { isSameId, toPrefixedId } from "#contract/ids.ts";
import { ORG_A_ID, ORG_B_ID } from "../../emulator/world/identities.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";

let store: Store;
let harness: BffHarness;

beforeAll(async () => {
  store = await createStore();
  harness = await createBffHarness(store);
});

afterAll(async () => {
  await harness.close();
  await store.close();
});

describe("GET /api/availability", () => {
  it("answers the templates, their instances in the window and the staleness meta of a facility", async () => {
    const facility = harness.emulator.emulator.state.org(ORG_B_ID)?.ehr.facilities.find((candidate) => candidate.timezone === "Australia/Lord_Howe");
    const query = new URLSearchParams({ facilityId: facility?.id ?? "", startDate: "2026-09-28", endDate: "2026-10-11" });
    const response = await harness.api(`/api/availability?${query.toString()}`, { token: await harness.hostToken({ organizationId: ORG_B_ID }) });
    expect(response.status).toBe(200);
    const body = z.parse(availabilityResponse, await response.json());
    expect(body.templates.length).toBeGreaterThan(0);
    expect(body.templates.every((template) => template.timezone === "Australia/Lord_Howe")).toBe(true);
    expect(body.instances.some((instance) => instance.startsAt.endsWith("+11:00"))).toBe(true);
    expect(body.instances.some((instance) => instance.startsAt.endsWith("+10:30"))).toBe(true);
    expect(body.meta.maxStalenessSeconds).toBeGreaterThan(0);
  });

  describe("one provider of a facility", () => {
    const AVAILABILITY = "/v3/schedule/availability-templates";
    /** A visible facility of org A with templates of two providers or more, and those providers' ids (the `prv_` form templates carry). */
    const facilityWithProviders = () => {
      const ehr = harness.emulator.emulator.state.org(ORG_A_ID)?.ehr;
      const providersAt = (facilityId: string) => [...new Set(ehr?.templates.filter((template) => isSameId(template.facilityId, facilityId)).map((template) => template.providerId))];
      const facility = ehr?.facilities.find((candidate) => candidate.isVisible && providersAt(candidate.id).length >= 2);
      if (!facility) throw new Error("org A has no facility with two providers");
      return { facility, providers: providersAt(facility.id) };
    };
    const read = async (query: Record<string, string>) => {
      const response = await harness.api(`/api/availability?${new URLSearchParams(query).toString()}`, { token: await harness.hostToken({ organizationId: ORG_A_ID }) });
      expect(response.status).toBe(200);
      return z.parse(availabilityResponse, await response.json());
    };
    /** What the service itself answers for the narrowed query. */
    const serviceAnswer = (query: Record<string, string>) => harness.emulator.get("GET /v3/schedule/availability-templates", { organizationId: ORG_A_ID, query });

    it("goes to the service with the provider, as asked (the SPA narrows the facility's week itself)", async () => {
      const { facility, providers } = facilityWithProviders();
      const week = { startDate: "2026-12-06", endDate: "2026-12-12" };
      const providerId = providers[1] ?? "";
      const narrowed = await read({ facilityId: facility.id, providerId, ...week });
      expect(harness.upstreamRequests.filter((line) => line.includes(AVAILABILITY) && line.includes(`providerId=${providerId}`) && line.includes(week.startDate))).toHaveLength(1);
      expect(narrowed).toEqual(await serviceAnswer({ facilityId: toPrefixedId("fac", facility.id), providerId, ...week }));
    });
  });

  it.each([
    [{ startDate: "2026-10-11", endDate: "2026-10-01" }, /endDate: must not be before startDate/],
    [{ startDate: "2026-01-01", endDate: "2027-06-01" }, /at most 366 days/],
    [{ startDate: "01/10/2026", endDate: "2026-10-11" }, /startDate/],
    [{ endDate: "2026-10-11" }, /startDate: is required/],
  ])("refuses %j naming the field", async (query, message) => {
    const response = await harness.api(`/api/availability?${new URLSearchParams(query).toString()}`, { token: await harness.hostToken() });
    expect(response.status).toBe(400);
    expect(z.parse(appErrorBody, await response.json()).message).toMatch(message);
  });
});
