import { randomFor } from "../../seed/random.ts";
import type { EhrOrganization } from "../../world/types.ts";
import type { BillingOrgData } from "./billing-records.ts";
import { dateOf, touched } from "./billing-dates.ts";
import { generateBill } from "./generate-bills.ts";
import { generatePrimaryClaims } from "./generate-claims.ts";
import { generateCoverage } from "./generate-coverage.ts";
import { generateEncounters } from "./generate-encounters.ts";
import { generateRemits } from "./generate-remits.ts";
import { assignEraIds, RemitBook } from "./remit-book.ts";
import { seedEraCases } from "./seed-era-cases.ts";

// The billing data of one organization, derived from its seeded EHR and the
// emulator's seed, dated relative to the instant the world was generated.
// Same seed, same world, same instant: the same data, byte for byte. Each
// step draws from its own random stream, so changing one leaves the others.

export function generateBilling(org: EhrOrganization, organizationIndex: number, seed: number, now: number): BillingOrgData {
  const stream = (part: string) => randomFor(seed, org.id, "billing", part);
  const encounters = generateEncounters(stream("encounters"), org, now);
  const coverage = generateCoverage(stream("coverage"), org.kind, org.patients, dateOf(now));
  const physicians = org.providers.filter((provider) => !provider.hidden && provider.roles.includes("Physician"));
  const billRandom = stream("bills");
  const bills = encounters.map((encounter, index) => generateBill(billRandom, { kind: org.kind, organizationIndex, coverage, physicians, now }, encounter, index));

  // A few bills were created in error and archived before anything was billed.
  const archiveRandom = stream("archived-bills");
  for (const bill of bills) {
    if (bill.integrationStatus === "submitted" && archiveRandom.chance(0.02)) {
      bill.archived = true;
      bill.updatedAt = touched(bill.updatedAt, Date.parse(bill.createdAt) + archiveRandom.int(1, 48) * 3_600_000);
    }
  }

  const claims = generatePrimaryClaims(stream("claims"), bills, now);
  const book = new RemitBook(stream("remits"), now);
  const billsById = new Map(bills.map((bill) => [bill.id, bill]));
  generateRemits(stream("adjudication"), { kind: org.kind, bills: billsById, claims, book, now });
  const cases = seedEraCases(stream("cases"), { kind: org.kind, bills: billsById, claims, patients: org.patients, book, now });
  const remits = [...book.remits].sort((a, b) => a.receivedAt.localeCompare(b.receivedAt) || a.id.localeCompare(b.id));
  assignEraIds(stream("era-ids"), remits);
  return { organizationId: org.id, kind: org.kind, bills, claims, remits, cases };
}
