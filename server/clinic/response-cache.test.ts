import { describe, expect, it } from "vitest";
import { ResponseCache } from "./response-cache.ts";

// Issue 15 item 1: one organization's distinct queries evict only its own
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
