import { createHash } from "node:crypto";
import type { EhrKind } from "../../world/types.ts";

// Identifiers of chart documents. The EHR numbers its documents (kind A a
// plain number, kind B a `DOC-` code); the service names each one by a UUID
// derived from the organization and the EHR id, so the list and the event
// agree without a lookup table, and a re-scan (a new EHR id) gets a new id.

export function ehrDocumentId(kind: EhrKind, sequence: number): string {
  return kind === "A" ? String(sequence) : `DOC-${sequence.toString(36).toUpperCase().padStart(7, "0")}`;
}

/** A name-based UUID (RFC 9562 version 5) in the organization's namespace. */
export function serviceDocumentId(organizationId: string, ehrId: string): string {
  const namespace = Buffer.from(organizationId.replaceAll("-", ""), "hex");
  const hash = createHash("sha1").update(namespace).update(`patient-document:${ehrId}`).digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
