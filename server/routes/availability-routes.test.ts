import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { availabilityResponse } from "#contract/app-api/availability.ts";
import { appErrorBody } from "#contract/app-api/errors.ts";
import { ORG_B_ID } from "../../emulator/world/identities.ts";
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
