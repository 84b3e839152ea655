import { randomFor, type Random } from "../../seed/random.ts";
import type { EhrOrganization } from "../../world/types.ts";
import { DOCUMENT_TYPES, documentFilename } from "./document-catalog.ts";
import { fileDocument } from "./document-book.ts";
import type { ChartListing, OrgDocuments } from "./document-model.ts";

// The seeded charts: a few documents per patient, generated from the seed and
// dated before the last nightly sweep, which listed every chart that held a
// document. Charts left empty have never been listed (their first listing is
// a baseline). Same seed and clock, same charts.

const MS_PER_HOUR = 3_600_000;
const MS_PER_DAY = 86_400_000;
/** How far back seeded documents go. */
const HISTORY_DAYS = 3 * 365;
/** Documents per chart, by weight: about one chart in six is empty. */
const COUNT_WEIGHTS: readonly (readonly [number, number])[] = [
  [0, 2],
  [1, 3],
  [2, 3],
  [3, 2],
  [4, 1],
  [5, 1],
];
/** Kind A numbers its documents from here; kind B codes count from 1. */
const FIRST_EHR_NUMBER: Record<EhrOrganization["kind"], number> = { A: 400_001, B: 1 };

export function seedOrgDocuments(seed: number, ehr: EhrOrganization, lastSweepSlot: number): OrgDocuments {
  const org: OrgDocuments = {
    organizationId: ehr.id,
    ehrKind: ehr.kind,
    charts: new Map(),
    byId: new Map(),
    listings: new Map(),
    lastSweepSlot,
    nextEhrNumber: FIRST_EHR_NUMBER[ehr.kind],
  };
  const random = randomFor(seed, ehr.id, "patient-documents");
  // Everything is filed at least an hour before the sweep, so the seeded sweep saw it all.
  const latest = lastSweepSlot - MS_PER_HOUR;
  for (const patient of ehr.patients) {
    org.charts.set(patient.id, []);
    const count = random.weighted(COUNT_WEIGHTS);
    const earliest = Math.max(Date.parse(patient.createdAt), lastSweepSlot - HISTORY_DAYS * MS_PER_DAY);
    const newest = latest - 6 * MS_PER_HOUR;
    if (count === 0 || earliest > newest) continue;
    const dates = Array.from({ length: count }, () => random.int(earliest, newest)).sort((a, b) => a - b);
    for (const createdAtMs of dates) seedOne(org, random, patient.id, createdAtMs, latest);
    const listing: ChartListing = { listedAt: lastSweepSlot, listedBy: "sweep", known: new Set(org.charts.get(patient.id)?.map((document) => document.ehrId)) };
    org.listings.set(patient.id, listing);
  }
  return org;
}

function seedOne(org: OrgDocuments, random: Random, patientId: string, createdAtMs: number, latest: number): void {
  const type = random.pick(DOCUMENT_TYPES);
  const title = random.pick(type.titles);
  const createdAt = new Date(createdAtMs).toISOString();
  // Filed from minutes to a few days after the EHR's date (a faxed report waits for someone to file it).
  const filedAtMs = Math.min(createdAtMs + random.int(5, 4 * 24 * 60) * 60_000, latest);
  const fields = { kind: type.kind, sourceCategory: type.sourceCategory, title, filename: documentFilename(title, createdAt, type.mimeType), mimeType: type.mimeType, bytes: random.int(type.bytes[0], type.bytes[1]) };
  fileDocument(org, patientId, fields, createdAtMs, filedAtMs);
}
