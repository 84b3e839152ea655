import * as z from "zod/mini";
import { patientDocumentEventData, webhookEnvelope } from "#contract/clinic-api/events.ts";
import { PATIENT_DOCUMENT_CREATED } from "#contract/clinic-api/documents.ts";
import { rawUuid, utcTimestamp } from "#contract/clinic-api/primitives.ts";
import { createTestEmulator, type TestEmulator } from "../../../testing/emulator-client.ts";
import { ORG_A_ID } from "../../../world/identities.ts";

// Test access to the patient documents domain: a webhook receiver that keeps
// what was delivered, the sandbox controls with their answers parsed, and
// pickers for seeded charts.

export interface Delivered {
  headers: Record<string, string>;
  body: string;
  envelope: z.infer<typeof webhookEnvelope>;
}

export interface DocumentsTest {
  test: TestEmulator;
  /** Waits for delivery to go idle and returns the `patient_document.created` deliveries since the last call. */
  documentEvents: () => Promise<Delivered[]>;
}

export function documentsTest(): DocumentsTest {
  const delivered: Delivered[] = [];
  const fetch: typeof globalThis.fetch = (_url, init) => {
    const body = typeof init?.body === "string" ? init.body : "";
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    delivered.push({ headers, body, envelope: z.parse(webhookEnvelope, JSON.parse(body)) });
    return Promise.resolve(new Response(null, { status: 204 }));
  };
  const test = createTestEmulator({ fetch });
  test.emulator.dispatcher.configure({ url: "http://127.0.0.1:9/webhooks/clinic", headerStyle: "standard" });
  return {
    test,
    documentEvents: async () => {
      await test.emulator.dispatcher.idle();
      return delivered.splice(0).filter((delivery) => delivery.envelope.type === PATIENT_DOCUMENT_CREATED);
    },
  };
}

/** The event payload, parsed strictly: exactly the seed's fields, nothing more (no download URL). */
export const strictEventData = z.strictObject(patientDocumentEventData.def.shape);

const ehrDocument = z.object({
  id: rawUuid,
  ehrId: z.string(),
  patientId: rawUuid,
  kind: z.string(),
  sourceCategory: z.string(),
  title: z.string(),
  filename: z.string(),
  mimeType: z.string(),
  bytes: z.int(),
  createdAt: utcTimestamp,
  updatedAt: utcTimestamp,
  removedAt: z.nullable(utcTimestamp),
});
export type SandboxDocument = z.infer<typeof ehrDocument>;

const SKIP_REASONS = ["first_listing", "rebaseline", "dated_before_previous_listing", "over_burst_cap"] as const;

export const listingReport = z.object({
  organizationId: rawUuid,
  patientId: rawUuid,
  listing: z.enum(["first_listing", "rebaseline", "compared"]),
  listedAt: utcTimestamp,
  previousListedAt: z.nullable(utcTimestamp),
  announced: z.array(patientDocumentEventData),
  skipped: z.array(z.object({ id: rawUuid, title: z.string(), createdAt: utcTimestamp, reason: z.enum(SKIP_REASONS) })),
  sent: z.int(),
});

export const sweepReport = z.object({
  organizationId: rawUuid,
  sweptAt: utcTimestamp,
  charts: z.int(),
  announced: z.array(patientDocumentEventData),
  skipped: z.record(z.enum(SKIP_REASONS), z.int()),
  sent: z.int(),
});

export const chartsOverview = z.object({
  organizationId: rawUuid,
  lastSweepAt: utcTimestamp,
  nextSweepAt: utcTimestamp,
  charts: z.array(
    z.object({
      patientId: rawUuid,
      patientName: z.nullable(z.string()),
      documents: z.int(),
      removed: z.int(),
      listedAt: z.nullable(utcTimestamp),
      listedBy: z.nullable(z.enum(["sweep", "refresh", "dashboard"])),
    }),
  ),
});

export const chartDetail = z.object({
  patientId: rawUuid,
  listing: z.nullable(z.object({ listedAt: utcTimestamp, listedBy: z.string(), known: z.int() })),
  documents: z.array(ehrDocument),
});

async function expectStatus(test: TestEmulator, method: string, path: string, status: number, body?: unknown): Promise<unknown> {
  const answer = await test.sandbox(method, path, body);
  if (answer.status !== status) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export interface FileRequest {
  kind?: string;
  sourceCategory?: string;
  title?: string;
  filename?: string;
  mimeType?: string;
  bytes?: number;
  createdAt?: string;
  rescanOf?: string;
  count?: number;
}

/** The sandbox controls of the domain, answers parsed. */
export function documentControls(test: TestEmulator, organizationId = ORG_A_ID) {
  const chart = (patientId: string) => `/ehr/${organizationId}/patients/${patientId}/documents`;
  return {
    async file(patientId: string, request: FileRequest = {}): Promise<SandboxDocument[]> {
      return z.parse(z.object({ documents: z.array(ehrDocument) }), await expectStatus(test, "POST", chart(patientId), 201, request)).documents;
    },
    async remove(patientId: string, documentId: string): Promise<SandboxDocument> {
      return z.parse(z.object({ document: ehrDocument }), await expectStatus(test, "DELETE", `${chart(patientId)}/${documentId}`, 200)).document;
    },
    async restore(patientId: string, documentId: string): Promise<SandboxDocument> {
      return z.parse(z.object({ document: ehrDocument }), await expectStatus(test, "POST", `${chart(patientId)}/${documentId}/restore`, 200)).document;
    },
    async dashboardRefresh(patientId: string) {
      return z.parse(listingReport, await expectStatus(test, "POST", `${chart(patientId)}/dashboard-refresh`, 200));
    },
    async sweep() {
      return z.parse(sweepReport, await expectStatus(test, "POST", `/ehr/${organizationId}/documents/sweep`, 200));
    },
    async charts() {
      return z.parse(chartsOverview, await expectStatus(test, "GET", `/ehr/${organizationId}/documents`, 200));
    },
    async chart(patientId: string) {
      return z.parse(chartDetail, await expectStatus(test, "GET", chart(patientId), 200));
    },
  };
}

/** A seeded chart that holds documents and was listed by the seeded sweep. */
export async function listedChart(test: TestEmulator, organizationId = ORG_A_ID, nth = 0): Promise<string> {
  const { charts } = await documentControls(test, organizationId).charts();
  const found = charts.filter((chart) => chart.documents >= 2 && chart.listedAt !== null)[nth];
  if (!found) throw new Error("no listed chart with documents");
  return found.patientId;
}

/** A seeded chart that holds nothing and has never been listed. */
export async function unlistedChart(test: TestEmulator, organizationId = ORG_A_ID, nth = 0): Promise<string> {
  const { charts } = await documentControls(test, organizationId).charts();
  const found = charts.filter((chart) => chart.documents === 0 && chart.listedAt === null)[nth];
  if (!found) throw new Error("no empty, never-listed chart");
  return found.patientId;
}

/** Refresh call as org A (or another organization) with the full key. */
export async function refresh(test: TestEmulator, patientId: string, organizationId = ORG_A_ID) {
  return test.get("POST /v1/patients/{patientId}/documents/refresh", { params: { patientId }, organizationId });
}
