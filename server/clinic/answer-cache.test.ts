import { describe, expect, it } from "vitest";
import { AnswerCache, scopeOf, type RequestScope } from "./answer-cache.ts";
import { SharedAnswer } from "./shared-answer.ts";

// ADR 0017 "The response cache is bounded per organization": one
// organization's distinct queries evict only its own kept answers; the cache
// stays within its bytes per organization and in total; an organization that
// goes quiet is forgotten. A hand-moved clock.

const ROUTE = "GET /v2/schedule/slots";
const EVERYWHERE: RequestScope = { facilityKeys: null, fromDate: null, toDate: null };
const FAC_1_RAW = "11111111-2222-4333-8444-555555555555";
const FAC_1 = "fac_11111111222243338444555555555555";
const FAC_2 = "fac_99999999222243338444555555555555";
const answerOf = (bytes: number) => SharedAnswer.fromBytes<object>({ body: new Uint8Array(bytes), encoding: "identity" });

function cache(options: { maxBytes?: number; maxBytesPerOrganization?: number; maxEntriesPerOrganization?: number } = {}) {
  const clock = { now: 0 };
  const subject = new AnswerCache({ now: () => clock.now, ...options });
  const put = (organization: string, key: string, bytes = 100, expiresAt = 60_000, scope = EVERYWHERE) => {
    const answer = answerOf(bytes);
    subject.set(organization, key, ROUTE, scope, answer, expiresAt);
    return answer;
  };
  return { clock, subject, put };
}

describe("AnswerCache", () => {
  it("keeps an answer until its expiry, not through its last millisecond", () => {
    const { clock, subject, put } = cache();
    const answer = put("org-a", "a", 100, 1_000);
    clock.now = 999;
    expect(subject.get("org-a", "a")).toBe(answer);
    clock.now = 1_000;
    expect(subject.get("org-a", "a")).toBeUndefined();
    put("org-a", "late", 100, 1_000);
    expect(subject.get("org-a", "late")).toBeUndefined();
  });

  it("an organization filling its bytes with distinct queries pushes out only its own least recently used answers", () => {
    const { subject, put } = cache({ maxBytes: 10_000, maxBytesPerOrganization: 4_000 });
    for (let index = 0; index < 3; index += 1) put("org-b", `b-${index}`, 1_000);
    for (let index = 0; index < 50; index += 1) put("org-a", `a-${index}`, 1_500);
    expect(subject.sizeOf("org-a")).toBe(2);
    expect(subject.sizeOf("org-b")).toBe(3);
    expect(subject.get("org-a", "a-49")).toBeDefined();
    expect(subject.get("org-a", "a-47")).toBeUndefined();
    expect(subject.holding().bytes).toBe(6_000);
  });

  it("past the total, the organization holding the most loses its least recently used, whoever inserts", () => {
    const { subject, put } = cache({ maxBytes: 10_000, maxBytesPerOrganization: 4_000 });
    for (const organization of ["org-a", "org-b", "org-c"]) for (let index = 0; index < 3; index += 1) put(organization, `${organization}-${index}`, 1_000);
    put("org-a", "org-a-3", 1_000);
    expect(subject.holding().bytes).toBe(10_000);
    put("org-d", "org-d-0", 500);
    expect(subject.holding().bytes).toBeLessThanOrEqual(10_000);
    expect([subject.sizeOf("org-a"), subject.sizeOf("org-b"), subject.sizeOf("org-c"), subject.sizeOf("org-d")]).toEqual([3, 3, 3, 1]);
    expect(subject.get("org-a", "org-a-0")).toBeUndefined();
  });

  it("does not keep an answer larger than an organization's share, and keeps what it held", () => {
    const { subject, put } = cache({ maxBytes: 10_000, maxBytesPerOrganization: 2_000 });
    const small = put("org-a", "small", 100);
    put("org-a", "huge", 2_001);
    expect(subject.get("org-a", "huge")).toBeUndefined();
    expect(subject.get("org-a", "small")).toBe(small);
    expect(subject.holding().bytes).toBe(100);
  });

  it("defaults: 16 MiB in total, a fifth per organization, 1000 answers per organization", () => {
    const { subject, put } = cache();
    for (let index = 0; index < 1_500; index += 1) put("org-a", `a-${index}`, 100);
    expect(subject.sizeOf("org-a")).toBe(1_000);
    for (let index = 0; index < 10; index += 1) put("org-b", `b-${index}`, 1024 * 1024);
    expect(subject.holding().bytes).toBeLessThanOrEqual(Math.floor((16 * 1024 * 1024) / 5) + 1_000 * 100);
  });

  it("forgets an organization once its longest-lived answer has expired: organizations that go quiet keep no memory", () => {
    const { clock, subject, put } = cache();
    for (let index = 0; index < 200; index += 1) put(`org-${index}`, "a", 100, 1_000 + index);
    expect(subject.holding().organizations).toBe(200);
    clock.now = 1_100;
    put("org-busy", "a", 100, 120_000);
    expect(subject.holding()).toEqual({ organizations: 100, answers: 100, bytes: 10_000 });
    clock.now = 60_000;
    put("org-busy", "b", 100, 120_000);
    expect(subject.holding().organizations).toBe(1);
  });

  it("invalidates by route prefix, and by facility and date: only answers whose request covers them, a day's margin either side of a local window", () => {
    const { subject, put } = cache();
    const scoped = (target: string) => scopeOf(`/v2/schedule/slots?${target.replaceAll("fac-1", FAC_1).replaceAll("fac-2", FAC_2)}`);
    put("org-a", "first", 100, 60_000, scoped("facilityIds=fac-1&startDate=2026-11-23&endDate=2026-11-27"));
    put("org-a", "both", 100, 60_000, scoped("facilityIds=fac-1%2Cfac-2&startDate=2026-11-23&endDate=2026-11-27"));
    put("org-a", "second", 100, 60_000, scoped("facilityIds=fac-2&startDate=2026-11-23&endDate=2026-11-27"));
    put("org-a", "every", 100, 60_000, scoped("startDate=2026-11-23&endDate=2026-11-27"));
    put("org-a", "later", 100, 60_000, scoped("facilityIds=fac-1&startDate=2026-12-07&endDate=2026-12-11"));
    put("org-b", "first", 100, 60_000, scoped("facilityIds=fac-1&startDate=2026-11-23&endDate=2026-11-27"));
    subject.invalidate("org-a", { routePrefix: "GET /v3", facilityId: FAC_1_RAW, date: "2026-11-24" });
    expect(subject.sizeOf("org-a")).toBe(5);
    subject.invalidate("org-a", { routePrefix: ROUTE, facilityId: FAC_1_RAW, date: "2026-11-29" });
    expect(subject.sizeOf("org-a")).toBe(5);
    // The webhook's raw UUID, the request's prefixed id: the same facility.
    subject.invalidate("org-a", { routePrefix: ROUTE, facilityId: FAC_1_RAW.toUpperCase(), date: "2026-11-22" });
    const kept = ["first", "both", "second", "every", "later"].filter((key) => subject.get("org-a", key) !== undefined);
    expect(kept).toEqual(["second", "later"]);
    expect(subject.get("org-b", "first")).toBeDefined();
    subject.invalidate("org-a");
    expect(subject.sizeOf("org-a")).toBe(0);
  });
});
