import { describe, expect, it } from "vitest";
import { ResponseCache } from "./response-cache.ts";

// ADR 0017 "The response cache is bounded per organization": one organization's distinct queries evict only its own
// cached answers; the cache stays within its bounds per organization and in
// total. A hand-moved clock.

const ROUTE = "GET /v2/schedule/slots";

function cache(maxEntries: number, maxEntriesPerOrganization?: number) {
  const clock = { now: 0 };
  const subject = new ResponseCache({ now: () => clock.now, maxEntries, maxEntriesPerOrganization });
  const put = (organization: string, key: string, expiresAt = 60_000) => subject.set(organization, key, ROUTE, { key }, expiresAt, subject.generation(organization));
  return { clock, subject, put };
}

describe("ResponseCache bounds", () => {
  it("an organization filling the cache with distinct queries evicts only its own oldest answers", () => {
    const { subject, put } = cache(100, 40);
    for (let index = 0; index < 10; index += 1) put("org-b", `b-${index}`);
    for (let index = 0; index < 10_000; index += 1) put("org-a", `a-${index}`);
    expect(subject.sizeOf("org-a")).toBe(40);
    expect(subject.sizeOf("org-b")).toBe(10);
    for (let index = 0; index < 10; index += 1) expect(subject.get("org-b", `b-${index}`)).toEqual({ key: `b-${index}` });
    // A keeps its newest.
    expect(subject.get("org-a", "a-9999")).toEqual({ key: "a-9999" });
    expect(subject.get("org-a", "a-9959")).toBeUndefined();
  });

  it("past the total, the organization holding the most loses its oldest, whoever inserts", () => {
    const { subject, put } = cache(100, 40);
    for (const organization of ["org-a", "org-b", "org-c"]) for (let index = 0; index < 30; index += 1) put(organization, `${organization}-${index}`);
    for (let index = 0; index < 40; index += 1) put("org-a", `org-a-more-${index}`);
    expect(subject.totalSize()).toBe(100);
    // A (the largest) paid for its own growth; B and C kept everything.
    expect(subject.sizeOf("org-b")).toBe(30);
    expect(subject.sizeOf("org-c")).toBe(30);
    expect(subject.sizeOf("org-a")).toBe(40);
    // A small organization's new answer pushes out the largest one's oldest, not its own.
    put("org-d", "org-d-0");
    expect(subject.get("org-d", "org-d-0")).toEqual({ key: "org-d-0" });
    expect(subject.sizeOf("org-a")).toBe(39);
    expect(subject.totalSize()).toBe(100);
  });

  it("drops expired answers before live ones when full", () => {
    const { clock, subject, put } = cache(10, 10);
    for (let index = 0; index < 5; index += 1) put("org-b", `b-${index}`, 1_000);
    for (let index = 0; index < 5; index += 1) put("org-a", `a-${index}`);
    clock.now = 2_000;
    for (let index = 5; index < 10; index += 1) put("org-a", `a-${index}`);
    expect(subject.sizeOf("org-a")).toBe(10);
    expect(subject.sizeOf("org-b")).toBe(0);
    for (let index = 0; index < 10; index += 1) expect(subject.get("org-a", `a-${index}`)).toEqual({ key: `a-${index}` });
  });

  it("defaults: 5000 in total, a fifth of that per organization", () => {
    const { subject, put } = cache(5_000);
    for (let index = 0; index < 3_000; index += 1) put("org-a", `a-${index}`);
    expect(subject.sizeOf("org-a")).toBe(1_000);
  });
});

describe("ResponseCache size bounds", () => {
  const answer = (characters: number) => ({ text: "x".repeat(characters - 11) }); // {"text":"…"} is 11 characters more

  function weighted(maxWeight: number, maxWeightPerOrganization?: number) {
    const subject = new ResponseCache({ now: () => 0, maxWeight, maxWeightPerOrganization });
    const put = (organization: string, key: string, characters: number) => subject.set(organization, key, ROUTE, answer(characters), 60_000, subject.generation(organization));
    return { subject, put };
  }

  it("weighs an answer by its JSON length", () => {
    const { subject, put } = weighted(10_000);
    put("org-a", "a", 500);
    expect(subject.weightOf("org-a")).toBe(500);
    put("org-a", "a", 700);
    expect(subject.weightOf()).toBe(700);
    expect(subject.totalSize()).toBe(1);
  });

  it("a few large answers push out an organization's own oldest, not another's, and the totals stay within bounds", () => {
    const { subject, put } = weighted(10_000, 4_000);
    for (let index = 0; index < 3; index += 1) put("org-b", `b-${index}`, 1_000);
    for (let index = 0; index < 50; index += 1) put("org-a", `a-${index}`, 1_500);
    expect(subject.weightOf("org-a")).toBe(3_000);
    expect(subject.sizeOf("org-b")).toBe(3);
    expect(subject.get("org-a", "a-49")).toEqual(answer(1_500));
    expect(subject.get("org-a", "a-47")).toBeUndefined();
    expect(subject.weightOf()).toBeLessThanOrEqual(10_000);
  });

  it("past the total size, the organization holding the most loses its oldest", () => {
    const { subject, put } = weighted(10_000, 4_000);
    for (const organization of ["org-a", "org-b", "org-c"]) for (let index = 0; index < 3; index += 1) put(organization, `${organization}-${index}`, 1_000);
    put("org-a", "org-a-3", 1_000);
    expect(subject.weightOf()).toBe(10_000);
    put("org-d", "org-d-0", 500);
    expect(subject.weightOf()).toBeLessThanOrEqual(10_000);
    expect(subject.sizeOf("org-a")).toBe(3);
    expect(subject.sizeOf("org-b")).toBe(3);
    expect(subject.get("org-d", "org-d-0")).toEqual(answer(500));
  });

  it("does not keep an answer larger than an organization's share, and keeps what it held", () => {
    const { subject, put } = weighted(10_000, 2_000);
    put("org-a", "small", 100);
    put("org-a", "huge", 2_001);
    expect(subject.get("org-a", "huge")).toBeUndefined();
    expect(subject.get("org-a", "small")).toEqual(answer(100));
    expect(subject.weightOf()).toBe(100);
  });
});

