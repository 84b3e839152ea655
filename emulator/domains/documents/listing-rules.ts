import type { ChartListing, EhrDocument, ListingSource } from "./document-model.ts";

// Seed 001 "Patient document event rules", as one pure function: a listing
// of a chart compares what the chart holds now with the chart's previous
// listing and decides which documents to announce. The sweep, the refresh
// call and a dashboard refresh all run it, against the same memory, so only
// the first listing that sees a document can announce it.

export interface ListingRules {
  /** A chart not listed for longer than this is re-baselined silently (seed 001 "Limits": 30 days). */
  rebaselineAfterMs: number;
  /** At most this many documents are announced by one listing: the most recently created. */
  burstCap: number;
}

/** first_listing: no previous listing; rebaseline: the previous one is too old; compared: announced by the rules. */
export type ListingKind = "first_listing" | "rebaseline" | "compared";

export type SkipReason = "first_listing" | "rebaseline" | "dated_before_previous_listing" | "over_burst_cap";

export interface ListingResult {
  kind: ListingKind;
  /** The chart's memory after this listing (replaces the previous one). */
  listing: ChartListing;
  previousListedAt: number | null;
  /** To announce, oldest first (consumers order on the timestamp). */
  announced: EhrDocument[];
  /** New to the service but not announced, and why. */
  skipped: { document: EhrDocument; reason: SkipReason }[];
}

const newestFirst = (a: EhrDocument, b: EhrDocument) => b.createdAtMs - a.createdAtMs || b.updatedAtMs - a.updatedAtMs;

/**
 * `present` is what the chart holds now (removed documents left out);
 * `previous` the chart's memory, undefined when it was never listed.
 */
export function listChart(present: readonly EhrDocument[], previous: ChartListing | undefined, now: number, source: ListingSource, rules: ListingRules): ListingResult {
  // Every EHR id ever seen stays known: a removed and restored document keeps its id and is not new.
  const known = new Set(previous?.known);
  const unseen = present.filter((document) => !known.has(document.ehrId));
  for (const document of present) known.add(document.ehrId);
  const listing: ChartListing = { listedAt: now, listedBy: source, known };
  const previousListedAt = previous?.listedAt ?? null;

  if (previous === undefined) {
    return { kind: "first_listing", listing, previousListedAt, announced: [], skipped: unseen.map((document) => ({ document, reason: "first_listing" })) };
  }
  if (now - previous.listedAt > rules.rebaselineAfterMs) {
    return { kind: "rebaseline", listing, previousListedAt, announced: [], skipped: unseen.map((document) => ({ document, reason: "rebaseline" })) };
  }

  const skipped: ListingResult["skipped"] = [];
  const candidates: EhrDocument[] = [];
  for (const document of unseen) {
    if (document.createdAtMs < previous.listedAt) skipped.push({ document, reason: "dated_before_previous_listing" });
    else candidates.push(document);
  }
  candidates.sort(newestFirst);
  const cap = Math.max(0, rules.burstCap);
  for (const document of candidates.slice(cap)) skipped.push({ document, reason: "over_burst_cap" });
  const announced = candidates.slice(0, cap).reverse();
  return { kind: "compared", listing, previousListedAt, announced, skipped };
}
