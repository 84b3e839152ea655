import type { Clock } from "../../clock.ts";
import type { OrgState, ServiceState } from "../../service/service-state.ts";
import type { EhrDocument, OrgDocuments } from "./document-model.ts";
import type { DownloadLinks } from "./download-links.ts";
import type { ListingRules } from "./listing-rules.ts";

// What the documents routes and controls share: the per-organization charts
// and listings, the rules, the download links.

export interface DocumentsContext {
  state: ServiceState;
  clock: Clock;
  rules: ListingRules;
  /** The UTC hour of the nightly sweep. */
  sweepHourUtc: number;
  links: DownloadLinks;
  /** The organization's charts and listings (an organization the seed did not cover starts with empty charts). */
  documentsOf(org: OrgState): OrgDocuments;
  /** A document by the service's id, in any organization. */
  findDocument(id: string): EhrDocument | undefined;
}

/** The scope of the list, the refresh call and the event (seed 001 event catalogue). */
export const DOCUMENTS_SCOPE = "read:patient_documents";
