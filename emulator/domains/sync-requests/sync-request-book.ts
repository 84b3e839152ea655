import * as z from "zod/mini";
import {
  SYNC_REQUEST_FAILURE_CODE,
  SYNC_REQUEST_RESOURCE_SCOPES,
  syncRequest as syncRequestSchema,
  syncRequestCompletedData,
  type SyncRequest,
  type SyncRequestResource,
} from "#contract/clinic-api/sync-requests.ts";
import type { WebhookEvent } from "../../webhooks/webhook-dispatcher.ts";

// One organization's on-demand sync requests (seed 001 event catalogue,
// `sync_request.completed`): `pending` until due, then completed (or failed,
// when the sandbox scripts it) by the first sync at or after that instant.
// The sync that completes a request is the re-sync it asked for.

export type SyncRequestOutcome = "completed" | "failed";

/** What happens to the next request: its outcome, `afterSeconds` after it was made (the `syncRequestSeconds` setting when left out). */
export interface ScriptedSyncOutcome {
  status: SyncRequestOutcome;
  afterSeconds?: number;
}

export interface SyncRequestRecord {
  syncRequest: SyncRequest;
  outcome: SyncRequestOutcome;
  dueAt: number;
}

export interface NewSyncRequest {
  id: string;
  resource: SyncRequestResource;
  patientId: string | null;
}

const isoAt = (ms: number) => new Date(ms).toISOString();

export class SyncRequestBook {
  private readonly records = new Map<string, SyncRequestRecord>();
  private scripted: ScriptedSyncOutcome[] = [];

  constructor(readonly organizationId: string) {}

  script(outcomes: readonly ScriptedSyncOutcome[]): void {
    this.scripted.push(...outcomes.map((outcome) => ({ ...outcome })));
  }

  scriptedOutcomes(): ScriptedSyncOutcome[] {
    return this.scripted.map((outcome) => ({ ...outcome }));
  }

  clearScript(): void {
    this.scripted = [];
  }

  /** A new pending request; its outcome is the next scripted one, else completed. */
  create(input: NewSyncRequest, now: number, defaultDelaySeconds: number): SyncRequestRecord {
    const scripted = this.scripted.shift();
    const record: SyncRequestRecord = {
      syncRequest: z.parse(syncRequestSchema, { ...input, status: "pending", requestedAt: isoAt(now), completedAt: null, errorCode: null }),
      outcome: scripted?.status ?? "completed",
      dueAt: now + Math.max(0, scripted?.afterSeconds ?? defaultDelaySeconds) * 1000,
    };
    this.records.set(input.id, record);
    return record;
  }

  get(id: string): SyncRequestRecord | undefined {
    return this.records.get(id);
  }

  list(): SyncRequestRecord[] {
    return [...this.records.values()];
  }

  hasDue(now: number): boolean {
    return this.list().some((record) => record.syncRequest.status === "pending" && record.dueAt <= now);
  }

  /** Makes a pending request due now (the sandbox's "complete now"). False when it is already terminal. */
  makeDue(id: string, now: number): boolean {
    const record = this.records.get(id);
    if (!record || record.syncRequest.status !== "pending") return false;
    record.dueAt = Math.min(record.dueAt, now);
    return true;
  }

  /**
   * Runs inside the organization's sync, after the mirror was brought up to
   * date: every due request is terminal now, each with one event gated on
   * the read scope of its resource.
   */
  complete(now: number): WebhookEvent[] {
    const stamp = isoAt(now);
    const due = this.list()
      .filter((record) => record.syncRequest.status === "pending" && record.dueAt <= now)
      .sort((a, b) => a.dueAt - b.dueAt || a.syncRequest.id.localeCompare(b.syncRequest.id));
    return due.map((record) => {
      record.syncRequest = z.parse(syncRequestSchema, {
        ...record.syncRequest,
        status: record.outcome,
        completedAt: stamp,
        errorCode: record.outcome === "failed" ? SYNC_REQUEST_FAILURE_CODE : null,
      });
      const { id, resource, patientId, status, requestedAt, errorCode } = record.syncRequest;
      const data = z.parse(syncRequestCompletedData, { id, organizationId: this.organizationId, resource, patientId, status, requestedAt, completedAt: stamp, errorCode });
      return { type: "sync_request.completed", data, timestamp: stamp, scope: SYNC_REQUEST_RESOURCE_SCOPES[resource] };
    });
  }
}

/** Every organization's sync requests; reset forgets them all. */
export class SyncRequestRegistry {
  private books = new Map<string, SyncRequestBook>();

  bookOf(organizationId: string): SyncRequestBook {
    let book = this.books.get(organizationId);
    if (!book) {
      book = new SyncRequestBook(organizationId);
      this.books.set(organizationId, book);
    }
    return book;
  }

  reset(): void {
    this.books = new Map();
  }
}
