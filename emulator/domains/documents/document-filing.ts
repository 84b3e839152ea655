import { DEFAULT_DOCUMENT_TYPE, documentFilename } from "./document-catalog.ts";
import { fileDocument, type DocumentFields } from "./document-book.ts";
import type { EhrDocument, OrgDocuments } from "./document-model.ts";
import type { FileDocumentsRequest } from "./document-sandbox-schemas.ts";

// What the sandbox's "file a document" control puts in the EHR: defaults for
// what the request leaves out, re-scans, and bursts.

/** A re-scan is a new scan of the same paper: same kind and title, a new file. */
const RESCAN_SIZE_FACTOR = 1.04;

function withIndex(filename: string, index: number): string {
  const dot = filename.lastIndexOf(".");
  return dot > 0 ? `${filename.slice(0, dot)}-${index}${filename.slice(dot)}` : `${filename}-${index}`;
}

export function fileFromRequest(org: OrgDocuments, patientId: string, request: FileDocumentsRequest, original: EhrDocument | undefined, now: number): EhrDocument[] {
  const base: Omit<DocumentFields, "filename"> = original
    ? { kind: original.kind, sourceCategory: "scan", title: original.title, mimeType: original.mimeType, bytes: Math.round(original.bytes * RESCAN_SIZE_FACTOR) }
    : { kind: DEFAULT_DOCUMENT_TYPE.kind, sourceCategory: DEFAULT_DOCUMENT_TYPE.sourceCategory, title: DEFAULT_DOCUMENT_TYPE.titles[0] ?? "Referral letter", mimeType: DEFAULT_DOCUMENT_TYPE.mimeType, bytes: 184_320 };
  const fields = {
    kind: request.kind ?? base.kind,
    sourceCategory: request.sourceCategory ?? base.sourceCategory,
    title: request.title ?? base.title,
    mimeType: request.mimeType ?? base.mimeType,
    bytes: request.bytes ?? base.bytes,
  };
  const count = request.count ?? 1;
  const firstCreatedAt = request.createdAt === undefined ? now : Date.parse(request.createdAt);
  const filed: EhrDocument[] = [];
  for (let index = 1; index <= count; index++) {
    // A millisecond apart and forward, so a burst filed right after a listing is never dated before it.
    const createdAtMs = firstCreatedAt + (index - 1);
    const title = count > 1 ? `${fields.title} (${index} of ${count})` : fields.title;
    const createdAt = new Date(createdAtMs).toISOString();
    const filename = request.filename === undefined ? documentFilename(title, createdAt, fields.mimeType) : count > 1 ? withIndex(request.filename, index) : request.filename;
    filed.push(fileDocument(org, patientId, { ...fields, title, filename }, createdAtMs, now));
  }
  return filed;
}
