import type { EhrKind } from "../../world/types.ts";

// The patient documents domain's records: the EHR's chart documents (source
// of truth) and the service's memory of each chart's listings.

/** One document in a patient's chart in the EHR. */
export interface EhrDocument {
  /** The EHR's own id; a re-scan is filed under a new one. */
  ehrId: string;
  /** The service's id, derived from the EHR id: the list and the event carry it. */
  id: string;
  patientId: string;
  kind: string;
  sourceCategory: string;
  title: string;
  filename: string;
  mimeType: string;
  bytes: number;
  /** As the EHR dates it; a scanned letter can be dated long before it was filed. */
  createdAt: string;
  createdAtMs: number;
  /** When the chart last gained it (filed or restored). */
  updatedAt: string;
  updatedAtMs: number;
  /** Set while removed from the chart; a restore clears it. */
  removedAt: string | null;
}

export type ListingSource = "sweep" | "refresh" | "dashboard";

/** The service's memory of a chart: when it was last listed and every EHR id a listing has seen on it. */
export interface ChartListing {
  listedAt: number;
  listedBy: ListingSource;
  /** EHR ids, kept after a removal so that a restore is not announced again. */
  known: Set<string>;
}

export interface OrgDocuments {
  organizationId: string;
  ehrKind: EhrKind;
  /** Documents by patient id, in filing order, removed ones included. */
  charts: Map<string, EhrDocument[]>;
  /** By the service's id. */
  byId: Map<string, EhrDocument>;
  /** By patient id; a chart without an entry has never been listed. */
  listings: Map<string, ChartListing>;
  /** The nightly slot (epoch ms) the last automatic sweep ran for. */
  lastSweepSlot: number;
  /** The next EHR document number to hand out. */
  nextEhrNumber: number;
}
