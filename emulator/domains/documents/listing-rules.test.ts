import { describe, expect, it } from "vitest";
import type { ChartListing, EhrDocument } from "./document-model.ts";
import { listChart, type ListingRules } from "./listing-rules.ts";

// Seed 001 "Patient document event rules" on the pure listing function,
// including the boundaries the HTTP tests do not pin down.

const DAY = 86_400_000;
const T0 = Date.parse("2026-11-23T02:00:00.000Z");
const rules: ListingRules = { rebaselineAfterMs: 30 * DAY, burstCap: 20 };

let sequence = 0;
function doc(createdAtMs: number, ehrId = `E${++sequence}`): EhrDocument {
  return {
    ehrId,
    id: `00000000-0000-4000-8000-${String(sequence).padStart(12, "0")}`,
    patientId: "11111111-1111-4111-8111-111111111111",
    kind: "lab_result",
    sourceCategory: "interface",
    title: `Document ${ehrId}`,
    filename: `${ehrId}.pdf`,
    mimeType: "application/pdf",
    bytes: 1000,
    createdAt: new Date(createdAtMs).toISOString(),
    createdAtMs,
    updatedAt: new Date(createdAtMs).toISOString(),
    updatedAtMs: createdAtMs,
    removedAt: null,
  };
}

const listedAt = (at: number, documents: EhrDocument[]): ChartListing => ({ listedAt: at, listedBy: "sweep", known: new Set(documents.map((document) => document.ehrId)) });

describe("listChart", () => {
  it("announces nothing on a chart's first listing, and remembers what it saw", () => {
    const documents = [doc(T0 - DAY), doc(T0 + 1000)];
    const result = listChart(documents, undefined, T0 + 2000, "refresh", rules);
    expect(result.kind).toBe("first_listing");
    expect(result.announced).toEqual([]);
    expect(result.skipped.map((entry) => entry.reason)).toEqual(["first_listing", "first_listing"]);
    expect([...result.listing.known]).toEqual(documents.map((document) => document.ehrId));
  });

  it("re-baselines silently after more than 30 days, and compares at exactly 30 days", () => {
    const old = doc(T0 - DAY);
    const previous = listedAt(T0, [old]);
    const arrived = doc(T0 + 10 * DAY);
    const late = listChart([old, arrived], previous, T0 + 30 * DAY + 1, "dashboard", rules);
    expect(late.kind).toBe("rebaseline");
    expect(late.announced).toEqual([]);
    expect(late.skipped).toEqual([{ document: arrived, reason: "rebaseline" }]);

    const onTime = listChart([old, arrived], previous, T0 + 30 * DAY, "dashboard", rules);
    expect(onTime.kind).toBe("compared");
    expect(onTime.announced).toEqual([arrived]);
  });

  it("skips a document the EHR dates before the previous listing; one dated at it is announced", () => {
    const previous = listedAt(T0, []);
    const before = doc(T0 - 1);
    const at = doc(T0);
    const result = listChart([before, at], previous, T0 + 1000, "refresh", rules);
    expect(result.announced).toEqual([at]);
    expect(result.skipped).toEqual([{ document: before, reason: "dated_before_previous_listing" }]);
  });

  it("does not announce a removed and restored document again: its EHR id stays known", () => {
    const document = doc(T0 + 1000);
    const first = listChart([document], listedAt(T0, []), T0 + 2000, "refresh", rules);
    expect(first.announced).toEqual([document]);
    const whileRemoved = listChart([], first.listing, T0 + 3000, "refresh", rules);
    expect(whileRemoved.listing.known.has(document.ehrId)).toBe(true);
    const restored = listChart([document], whileRemoved.listing, T0 + 4000, "sweep", rules);
    expect(restored.announced).toEqual([]);
    expect(restored.skipped).toEqual([]);
  });

  it("announces a re-scan: a new EHR id is a new document", () => {
    const original = doc(T0 - DAY);
    const rescan = { ...doc(T0 + 1000), title: original.title };
    const result = listChart([original, rescan], listedAt(T0, [original]), T0 + 2000, "refresh", rules);
    expect(result.announced).toEqual([rescan]);
  });

  it("caps a burst to the most recently created documents, announced oldest first", () => {
    const burst = Array.from({ length: 25 }, (_, index) => doc(T0 + (index + 1) * 1000));
    const shuffled = [...burst].sort((a, b) => a.ehrId.localeCompare(b.ehrId)).reverse();
    const result = listChart(shuffled, listedAt(T0, []), T0 + DAY, "sweep", rules);
    expect(result.announced).toEqual(burst.slice(5));
    expect(result.skipped.map((entry) => entry.document).sort((a, b) => a.createdAtMs - b.createdAtMs)).toEqual(burst.slice(0, 5));
    expect(result.skipped.every((entry) => entry.reason === "over_burst_cap")).toBe(true);
    // The capped ones are known now: a later listing does not announce them either.
    expect(listChart(burst, result.listing, T0 + DAY + 1000, "refresh", rules).announced).toEqual([]);
  });

  it("announces a document once, whichever listing sees it first", () => {
    const document = doc(T0 + 1000);
    const bySweep = listChart([document], listedAt(T0, []), T0 + 2000, "sweep", rules);
    expect(bySweep.announced).toEqual([document]);
    expect(listChart([document], bySweep.listing, T0 + 3000, "refresh", rules).announced).toEqual([]);
    expect(listChart([document], bySweep.listing, T0 + 3000, "dashboard", rules).announced).toEqual([]);
  });
});
