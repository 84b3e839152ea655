import { describe, expect, it } from "vitest";
import { cacheExpiry, sourceSyncedAtOf, type CachePolicyInput } from "./cache-policy.ts";

// DESIGN.md "Upstream": cached until sourceSyncedAt + maxStalenessSeconds,
// never longer, never notes; pickers for a short fixed time.

const NOW = Date.parse("2026-11-23T14:00:10.000Z");
const meta = (overrides: Record<string, unknown> = {}) => ({
  meta: { sourceSyncedAt: "2026-11-23T14:00:00.000Z", maxStalenessSeconds: 60, strongConsistency: false, sourceKind: "ehr_kind_a", ...overrides },
});
const input = (overrides: Partial<CachePolicyInput>): CachePolicyInput => ({
  route: "GET /v3/schedule/availability-templates",
  data: meta(),
  strong: false,
  requestStartedAt: NOW,
  now: NOW,
  pickerTtlMs: 60_000,
  ...overrides,
});

describe("cacheExpiry", () => {
  it("schedule reads live until sourceSyncedAt + maxStalenessSeconds", () => {
    expect(cacheExpiry(input({}))).toBe(Date.parse("2026-11-23T14:01:00.000Z"));
  });

  it("never when that is already past, when strong, or when the meta says strong", () => {
    expect(cacheExpiry(input({ now: Date.parse("2026-11-23T14:01:00.000Z") }))).toBeNull();
    expect(cacheExpiry(input({ strong: true }))).toBeNull();
    expect(cacheExpiry(input({ data: meta({ strongConsistency: true }) }))).toBeNull();
    expect(cacheExpiry(input({ data: meta({ maxStalenessSeconds: 0 }) }))).toBeNull();
  });

  it("a client clock behind the service's cannot stretch the lifetime (generatedAt measures what is left)", () => {
    // The service says it is 14:00:50: 10 s are left. Our clock reads 14:00:10.
    const data = meta({ generatedAt: "2026-11-23T14:00:50.000Z" });
    expect(cacheExpiry(input({ route: "GET /v2/schedule/slots", data }))).toBe(NOW + 10_000);
  });

  it("appointments only until the bound their caller gives (ADR 0020), and never when strong or already past", () => {
    const route = "GET /v1/appointments";
    expect(cacheExpiry(input({ route, data: {}, cacheUntil: NOW + 30_000 }))).toBe(NOW + 30_000);
    expect(cacheExpiry(input({ route, data: {}, cacheUntil: NOW }))).toBeNull();
    expect(cacheExpiry(input({ route, data: {}, cacheUntil: NOW + 30_000, strong: true }))).toBeNull();
    // A bound is the caller's word for this route only: other reads keep their own rules.
    expect(cacheExpiry(input({ route: "GET /v1/notes/{noteId}", data: {}, cacheUntil: NOW + 30_000 }))).toBeNull();
  });

  it("pickers for pickerTtlMs; anything else never", () => {
    expect(cacheExpiry(input({ route: "GET /v1/providers", data: {} }))).toBe(NOW + 60_000);
    expect(cacheExpiry(input({ route: "GET /v1/providers", data: {}, pickerTtlMs: 0 }))).toBeNull();
    for (const route of ["GET /v1/notes/{noteId}", "GET /v3/notes/{noteId}/images", "GET /v1/patients", "GET /v1/installations", "GET /v1/appointments"] as const) {
      expect(cacheExpiry(input({ route, data: meta() }))).toBeNull();
    }
  });
});

describe("sourceSyncedAtOf", () => {
  it("reads a schedule read's sync time, and nothing for other routes or answers without the meta", () => {
    expect(sourceSyncedAtOf("GET /v2/schedule/slots", meta())).toBe(Date.parse("2026-11-23T14:00:00.000Z"));
    expect(sourceSyncedAtOf("GET /v1/providers", meta())).toBeNull();
    expect(sourceSyncedAtOf("GET /v2/schedule/slots", { meta: {} })).toBeNull();
  });
});
