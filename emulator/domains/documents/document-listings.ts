import * as z from "zod/mini";
import { patientDocumentEventData } from "#contract/clinic-api/events.ts";
import { PATIENT_DOCUMENT_CREATED } from "#contract/clinic-api/documents.ts";
import type { WebhookEvent } from "../../webhooks/webhook-dispatcher.ts";
import { presentDocuments } from "./document-book.ts";
import type { EhrDocument, ListingSource, OrgDocuments } from "./document-model.ts";
import { listChart, type ListingResult, type ListingRules } from "./listing-rules.ts";
import { sweepSlotAt } from "./sweep-schedule.ts";

// The service side of patient documents: listing a chart (refresh call,
// dashboard refresh, nightly sweep), remembering it, and the events it
// announces. Callers send the events through `ServiceState`, which drops
// them unless the installation is active and grants `read:patient_documents`.

export interface ListingOutcome {
  result: ListingResult;
  events: WebhookEvent[];
}

export interface SweepOutcome {
  /** Charts listed: every chart that holds a document. */
  charts: number;
  results: ListingResult[];
  events: WebhookEvent[];
}

/** Seed 001 "Patient document event `data`": no download URL, it would expire before the retries end. */
export function documentEventData(organizationId: string, document: EhrDocument) {
  return z.parse(patientDocumentEventData, {
    id: document.id,
    organizationId,
    patientId: document.patientId,
    kind: document.kind,
    sourceCategory: document.sourceCategory,
    title: document.title,
    filename: document.filename,
    mimeType: document.mimeType,
    bytes: document.bytes,
    createdAt: document.createdAt,
  });
}

export function listChartNow(org: OrgDocuments, patientId: string, now: number, source: ListingSource, rules: ListingRules): ListingOutcome {
  const result = listChart(presentDocuments(org, patientId), org.listings.get(patientId), now, source, rules);
  org.listings.set(patientId, result.listing);
  // The envelope's timestamp is when the change was recorded: this listing.
  const timestamp = new Date(now).toISOString();
  const events = result.announced.map((document) => ({ type: PATIENT_DOCUMENT_CREATED, data: documentEventData(org.organizationId, document), timestamp }));
  return { result, events };
}

/** The nightly sweep: lists every chart that holds a document (an empty chart is not visited, so it may never have been listed). */
export function sweep(org: OrgDocuments, now: number, rules: ListingRules): SweepOutcome {
  const outcome: SweepOutcome = { charts: 0, results: [], events: [] };
  for (const patientId of org.charts.keys()) {
    if (presentDocuments(org, patientId).length === 0) continue;
    const { result, events } = listChartNow(org, patientId, now, "sweep", rules);
    outcome.charts += 1;
    outcome.results.push(result);
    outcome.events.push(...events);
  }
  return outcome;
}

/** Runs the sweep when tonight's slot has not had one yet; at most once per emulator day. */
export function sweepIfDue(org: OrgDocuments, now: number, rules: ListingRules, sweepHourUtc: number): WebhookEvent[] {
  const slot = sweepSlotAt(now, sweepHourUtc);
  if (slot <= org.lastSweepSlot) return [];
  org.lastSweepSlot = slot;
  return sweep(org, now, rules).events;
}
