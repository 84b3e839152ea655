// The kinds of chart documents the sandbox files: what a dermatology and
// primary-care EHR holds. `kind` and `sourceCategory` are open strings in the
// seeds; these values are the emulator's.

export interface DocumentType {
  kind: string;
  sourceCategory: string;
  titles: readonly string[];
  mimeType: string;
  /** Typical size range in bytes. */
  bytes: readonly [number, number];
}

export const DOCUMENT_TYPES: readonly DocumentType[] = [
  { kind: "lab_result", sourceCategory: "interface", titles: ["Comprehensive metabolic panel", "CBC with differential", "Lipid panel", "Hemoglobin A1c", "Thyroid panel"], mimeType: "application/pdf", bytes: [38_000, 160_000] },
  { kind: "pathology_report", sourceCategory: "interface", titles: ["Skin biopsy pathology report", "Dermatopathology consult", "Excision margins report"], mimeType: "application/pdf", bytes: [60_000, 240_000] },
  { kind: "imaging_report", sourceCategory: "fax", titles: ["Chest X-ray report", "Ultrasound report", "MRI report"], mimeType: "application/pdf", bytes: [90_000, 420_000] },
  { kind: "referral_letter", sourceCategory: "fax", titles: ["Referral letter", "Consultation letter", "Discharge summary"], mimeType: "application/pdf", bytes: [120_000, 900_000] },
  { kind: "consent_form", sourceCategory: "scan", titles: ["Procedure consent", "Photography consent", "Privacy notice acknowledgement"], mimeType: "application/pdf", bytes: [200_000, 1_400_000] },
  { kind: "insurance_card", sourceCategory: "scan", titles: ["Insurance card (front)", "Insurance card (back)"], mimeType: "image/jpeg", bytes: [150_000, 700_000] },
  { kind: "clinical_photo", sourceCategory: "upload", titles: ["Clinical photo", "Dermoscopy image"], mimeType: "image/jpeg", bytes: [800_000, 4_800_000] },
  { kind: "outside_records", sourceCategory: "portal", titles: ["Outside medical records", "Immunization record"], mimeType: "application/pdf", bytes: [300_000, 6_000_000] },
];

/** The type a sandbox-filed document gets when the request names none. */
export const DEFAULT_DOCUMENT_TYPE: DocumentType = DOCUMENT_TYPES[3] as DocumentType;

const EXTENSIONS: Record<string, string> = { "application/pdf": "pdf", "image/jpeg": "jpg", "image/png": "png", "image/tiff": "tif" };

/** `consult-letter-2026-11-23.pdf`: the title in kebab case, the EHR's date, the type's extension. */
export function documentFilename(title: string, createdAt: string, mimeType: string): string {
  const stem = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return `${stem || "document"}-${createdAt.slice(0, 10)}.${EXTENSIONS[mimeType] ?? "bin"}`;
}
