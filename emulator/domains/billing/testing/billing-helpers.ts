import type { EraServiceLine } from "#contract/clinic-api/billing.ts";
import { UUID_PATTERN } from "#contract/ids.ts";
import { FULL_KEY, type CallOptions, type TestEmulator } from "../../../testing/emulator-client.ts";
import { ORG_A_ID } from "../../../world/identities.ts";
import type { SeededEraCases } from "../billing-records.ts";

// Helpers of the billing tests: the seeded cases and remits as the sandbox
// lists them, every ERA line across pages, and a raw GET to see exactly which
// fields a response carries (the contract's parse drops unknown ones).

export interface RemitSummary {
  id: string;
  status: "posted" | "unposted";
  payerName: string;
  paymentDate: string;
  receivedAt: string;
  postedAt: string | null;
  lineCount: number;
  eraClaims: { id: string; eraClaimControlNumber: string | null; claimStatusCode: string; matchedClaimId: string | null; lineIds: string[] }[];
}

export interface RemitListing {
  remits: RemitSummary[];
  cases: SeededEraCases;
}

export async function remitsOf(test: TestEmulator, organizationId = ORG_A_ID, status?: "posted" | "unposted"): Promise<RemitListing> {
  const response = await test.sandbox("GET", `/ehr/${organizationId}/era-remits${status ? `?status=${status}` : ""}`);
  if (response.status !== 200) throw new Error(`era-remits answered ${response.status}`);
  return response.body as RemitListing;
}

/** Every ERA line the list returns for a query, page by page. */
export async function allLines(test: TestEmulator, query: CallOptions["query"] = {}, options: Omit<CallOptions, "query"> = {}): Promise<EraServiceLine[]> {
  const lines: EraServiceLine[] = [];
  for (let page = 1; ; page++) {
    const data = await test.get("GET /v1/era-service-lines", { ...options, query: { ...query, page, pageSize: 100 } });
    lines.push(...data.eraServiceLines);
    if (page >= data.pagination.totalPages) return lines;
  }
}

export async function rawGet(test: TestEmulator, path: string, organizationId = ORG_A_ID): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await test.emulator.app.request(path, { headers: { authorization: `Bearer ${FULL_KEY}`, "x-organization-id": organizationId } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export function required<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new Error(`missing ${what}`);
  return value;
}

/** A composite key of an unposted row: `<remit uuid>:<claim>[:<line>]`. */
export const COMPOSITE_LINE_ID = /^[0-9a-f-]{36}:\d+:\d+$/;
export const COMPOSITE_ERA_CLAIM_ID = /^[0-9a-f-]{36}:\d+$/;
export const UUID = new RegExp(`^${UUID_PATTERN}$`);
