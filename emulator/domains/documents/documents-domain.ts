import type { DomainDeps, EmulatorDomain } from "../domain.ts";
import type { OrgState } from "../../service/service-state.ts";
import type { OrgDocuments } from "./document-model.ts";
import { registerDocumentRoutes } from "./document-routes.ts";
import { registerDocumentSandbox } from "./document-sandbox.ts";
import { sweepIfDue } from "./document-listings.ts";
import type { DocumentsContext } from "./documents-context.ts";
import { createDownloadLinks } from "./download-links.ts";
import { seedOrgDocuments } from "./seed-documents.ts";
import { sweepSlotAt } from "./sweep-schedule.ts";

// Patient documents (docs/assumed-contracts.md "Patient documents"): each patient's chart in the EHR, the service's
// listings of it and `patient_document.created` by seed 001's rules; the
// documents list and refresh call (assumed contracts); the nightly sweep as
// part of the sync, at most once per emulator day.

export interface DocumentsOptions {
  /** Most documents one listing announces (the most recently created). */
  burstCap?: number;
  /** Seed 001 "Limits": the chart re-baseline gap. */
  rebaselineAfterDays?: number;
  /** Lifetime of a `downloadUrl`. */
  downloadUrlSeconds?: number;
  /** UTC hour from which a day's nightly sweep runs. */
  sweepHourUtc?: number;
}

export const DOCUMENTS_DEFAULTS: Required<DocumentsOptions> = { burstCap: 20, rebaselineAfterDays: 30, downloadUrlSeconds: 900, sweepHourUtc: 2 };

const MS_PER_DAY = 86_400_000;

export function createDocumentsDomain(deps: DomainDeps, options: DocumentsOptions = {}): EmulatorDomain {
  const settings = { ...DOCUMENTS_DEFAULTS, ...options };
  const { state, clock } = deps;
  let books = new Map<string, OrgDocuments>();
  const seededSlot = () => sweepSlotAt(state.seededAt(), settings.sweepHourUtc);

  const seedAll = () => {
    books = new Map(state.organizations().map((org) => [org.ehr.id, seedOrgDocuments(deps.seed, org.ehr, seededSlot())]));
  };
  seedAll();

  const documentsOf = (org: OrgState): OrgDocuments => {
    let documents = books.get(org.ehr.id);
    if (!documents) {
      documents = { organizationId: org.ehr.id, ehrKind: org.ehr.kind, charts: new Map(), byId: new Map(), listings: new Map(), lastSweepSlot: seededSlot(), nextEhrNumber: 1 };
      books.set(org.ehr.id, documents);
    }
    return documents;
  };

  const ctx: DocumentsContext = {
    state,
    clock,
    rules: { rebaselineAfterMs: settings.rebaselineAfterDays * MS_PER_DAY, burstCap: settings.burstCap },
    sweepHourUtc: settings.sweepHourUtc,
    // A fixed sandbox secret: what the sandbox shows is the link's expiry, not its secrecy.
    links: createDownloadLinks({ publicUrl: deps.settings.publicUrl, clock, lifetimeSeconds: settings.downloadUrlSeconds, secret: `patient-documents:${deps.seed}` }),
    documentsOf,
    findDocument: (id) => {
      for (const documents of books.values()) {
        const document = documents.byId.get(id);
        if (document) return document;
      }
      return undefined;
    },
  };

  return {
    name: "patient-documents",
    registerRoutes: (service) => registerDocumentRoutes(service, ctx),
    registerSandbox: (sandbox) => registerDocumentSandbox(sandbox, ctx),
    reset: seedAll,
    onSync: (org, now) => sweepIfDue(documentsOf(org), now, ctx.rules, settings.sweepHourUtc),
  };
}
