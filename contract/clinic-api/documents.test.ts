import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { documentRefreshData, patientDocument, patientDocumentsQuery } from "./documents.ts";
import { patientDocumentEventData } from "./events.ts";

// The assumed patient documents contracts, and their agreement with the
// seed's event payload.

const listed = {
  id: "6f1c2b7e-4a0d-5c3e-9b1a-0d2e3f4a5b6c",
  patientId: "816344a9-09f3-4308-9870-b9c4801b208b",
  kind: "lab_result",
  sourceCategory: "interface",
  title: "Lipid panel",
  filename: "lipid-panel-2026-11-20.pdf",
  mimeType: "application/pdf",
  bytes: 48_213,
  createdAt: "2026-11-20T15:04:05.000Z",
  updatedAt: "2026-11-21T09:00:00.000Z",
  downloadUrl: "http://127.0.0.1:4010/_sandbox/documents/6f1c2b7e-4a0d-5c3e-9b1a-0d2e3f4a5b6c/download?expires=1795000000&signature=abc",
};

describe("patient documents contracts", () => {
  it("a listed document carries every field of the event payload, plus updatedAt and downloadUrl", () => {
    const document = z.parse(patientDocument, listed);
    const { updatedAt: _updatedAt, downloadUrl: _downloadUrl, ...eventFields } = document;
    expect(z.parse(patientDocumentEventData, { ...eventFields, organizationId: "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61" })).toMatchObject(eventFields);
  });

  it("rejects a fractional size, a missing download URL and a timestamp without milliseconds", () => {
    expect(z.safeParse(patientDocument, { ...listed, bytes: 1.5 }).success).toBe(false);
    const { downloadUrl: _downloadUrl, ...withoutUrl } = listed;
    expect(z.safeParse(patientDocument, withoutUrl).success).toBe(false);
    expect(z.safeParse(patientDocument, { ...listed, createdAt: "2026-11-20T15:04:05Z" }).success).toBe(false);
  });

  it("parses the query and the refresh answer", () => {
    expect(z.parse(patientDocumentsQuery, { updatedSince: "2026-11-21T00:00:00.000Z", pageSize: "50" })).toEqual({ updatedSince: "2026-11-21T00:00:00.000Z", pageSize: 50 });
    expect(z.safeParse(patientDocumentsQuery, { updatedSince: "2026-11-21" }).success).toBe(false);
    expect(z.safeParse(documentRefreshData, { patientId: listed.patientId, refreshedAt: "2026-11-23T14:00:00.000Z", announced: -1 }).success).toBe(false);
  });
});
