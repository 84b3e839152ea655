import { describe, expect, it } from "vitest";
import { ORG_A_ID } from "../world/identities.ts";
import { createTestEmulator } from "../testing/emulator-client.ts";

describe("pagination (seed 001 Common rules, Limits)", () => {
  const { call } = createTestEmulator();

  it("defaults to page 1 and pageSize 100", async () => {
    const result = await call("GET /v1/patients");
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.data!.pagination).toMatchObject({ page: 1, pageSize: 100 });
      expect(result.data!.patients).toHaveLength(100);
      expect(result.data!.pagination.totalPages).toBe(Math.ceil(result.data!.pagination.totalCount / 100));
    }
  });

  it("refuses pageSize above 100 with a message naming it", async () => {
    const result = await call("GET /v1/patients", { query: { pageSize: 101 } });
    expect(result.status).toBe(400);
    expect(result.error?.message).toBe("pageSize: must be at most 100");
  });

  it.each([["page", "0", "page: must be at least 1"], ["page", "x", "page: must be a whole number"], ["pageSize", "-3", "pageSize: must be a whole number"]])(
    "refuses %s=%s",
    async (name, value, message) => {
      const result = await call("GET /v1/providers", { query: { [name]: value } });
      expect(result.status).toBe(400);
      expect(result.error?.message).toBe(message);
    },
  );

  it("answers an empty page with an empty array and totalCount 0", async () => {
    const result = await call("GET /v1/patients", { query: { search: "zzzz-nobody-zzzz" } });
    expect(result.data).toEqual({ patients: [], pagination: { page: 1, pageSize: 100, totalCount: 0, totalPages: 0 } });
  });

  it("answers a page past the end with an empty array and the real totals", async () => {
    const result = await call("GET /v1/patients", { query: { page: 999 } });
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.data!.patients).toEqual([]);
      expect(result.data!.pagination.totalCount).toBeGreaterThanOrEqual(300);
    }
  });
});

describe("rate limit (seed 001 Limits, Errors: 429 headers)", () => {
  it("answers 429 rate_limit_exceeded with X-RateLimit-* and Retry-After once the window is spent, per key and organization", async () => {
    const { call, emulator } = createTestEmulator({ settings: { rateLimit: 3, rateLimitWindowSeconds: 60 } });
    for (let i = 0; i < 3; i += 1) {
      const result = await call("GET /v1/facilities");
      expect(result.status).toBe(200);
      expect(result.headers.get("x-ratelimit-remaining")).toBe(String(2 - i));
    }
    const limited = await call("GET /v1/facilities");
    expect(limited.status).toBe(429);
    expect(limited.error?.code).toBe("rate_limit_exceeded");
    expect(limited.headers.get("x-ratelimit-limit")).toBe("3");
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    const reset = Number(limited.headers.get("x-ratelimit-reset"));
    expect(reset * 1000).toBeGreaterThan(emulator.clock.now());
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);

    // Another organization has its own window.
    const other = await call("GET /v1/facilities", { organizationId: "8c4e2d19-7a36-4b5f-a0e1-9d8c7b6a5f42" });
    expect(other.status).toBe(200);

    // The window resets on the emulator's clock.
    emulator.clock.set({ advanceSeconds: 61 });
    expect((await call("GET /v1/facilities", { organizationId: ORG_A_ID })).status).toBe(200);
  });
});

describe("bad input never crashes it", () => {
  const { call } = createTestEmulator();

  it.each([
    ["GET /v1/appointments", { query: { dateFrom: "2026-13-01" } }, /dateFrom/],
    ["GET /v1/appointments", { query: { sortBy: "nope" } }, /sortBy/],
    ["GET /v2/schedule/slots", { query: { startDate: "2026-11-23", endDate: "2026-11-24" } }, /appointmentTypeId: is required/],
    ["GET /v3/schedule/availability-templates", { query: { startDate: "2026-11-30", endDate: "2026-11-23" } }, /endDate/],
    ["PATCH /v1/notes/{noteId}", { params: { noteId: "00000000-0000-4000-8000-000000000000" }, body: "{not json" }, /valid JSON/],
    ["POST /v2/tasks", { body: { noteId: "x", providerId: "y", notes: "z", assigneeIds: [] } }, /assigneeIds/],
    ["GET /v1/facilities", { query: { search: "\u0000\uffff".repeat(300) } }, /search/],
  ] as const)("%s with bad input gets a 400 naming the field", async (route, options, message) => {
    const result = await call(route, options);
    expect(result.status).toBe(400);
    expect(result.error?.code).toBe("bad_request");
    expect(result.error?.message).toMatch(message);
  });
});
