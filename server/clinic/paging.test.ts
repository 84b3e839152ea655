import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listBoundedPages, TooManyPages } from "./paging.ts";
import { createHarness, expectNoKeyLeak, ORG_A, type Harness } from "./testing/emulator-harness.ts";

// Seed 001 "Common rules" (`page` from 1, `pageSize` at most 100,
// `data.pagination.totalPages`) and "Limits" (1000 requests per 60 s): a
// list read for one answer stops at its caller's page cap, found out from the
// first page.

let harness: Harness;
let totalCount: number;

beforeAll(async () => {
  harness = createHarness();
  totalCount = (await harness.client().read("GET /v1/appointments", { organizationId: ORG_A, query: { pageSize: 1 } })).data().pagination.totalCount;
});
beforeEach(async () => {
  await harness.reset();
});
afterAll(() => {
  expectNoKeyLeak(harness);
});

describe("listBoundedPages", () => {
  it("reads every page of a list within the cap, 100 a page, in page order", async () => {
    const pages = Math.ceil(totalCount / 100);
    expect(pages).toBeGreaterThan(4);
    const items = await listBoundedPages(harness.client(), "GET /v1/appointments", "appointments", { organizationId: ORG_A, query: { sortBy: "scheduledStartDate" } }, { maxPages: pages, concurrency: 3 });
    expect(items).toHaveLength(totalCount);
    expect(new Set(items.map((item) => item.id)).size).toBe(totalCount);
    const starts = items.map((item) => item.scheduledStartDate);
    expect(starts).toEqual([...starts].sort());
    expect(harness.count("GET", "/v1/appointments")).toBe(pages);
    expect(harness.calls.every((call) => call.search.get("pageSize") === "100")).toBe(true);
  });

  it("past the cap, stops after the first page and says how long the list is", async () => {
    const reading = listBoundedPages(harness.client(), "GET /v1/appointments", "appointments", { organizationId: ORG_A }, { maxPages: 2 });
    await expect(reading).rejects.toBeInstanceOf(TooManyPages);
    await expect(reading).rejects.toMatchObject({ totalCount, maxPages: 2 });
    expect(harness.count("GET", "/v1/appointments")).toBe(1);
  });

  it("an empty list is one read", async () => {
    const items = await listBoundedPages(harness.client(), "GET /v1/appointments", "appointments", { organizationId: ORG_A, query: { dateFrom: "2001-01-01", dateTo: "2001-01-07" } }, { maxPages: 1 });
    expect(items).toEqual([]);
    expect(harness.count("GET", "/v1/appointments")).toBe(1);
  });
});
