import * as z from "zod/mini";
import { fax as faxSchema, faxStatusChangedData, type Fax, type FaxErrorKind } from "#contract/clinic-api/faxes.ts";
import type { WebhookEvent } from "../../webhooks/webhook-dispatcher.ts";

// One organization's faxes and the EHR's scripted answers (seed 001 "Fax
// event", seed 000 "Transitions that are shown"): a fax is `sent` until its
// outcome is due, then `delivered` or `failed`; each terminal transition is
// committed once and announced at most once.

export type FaxOutcome = { status: "delivered" } | { status: "failed"; errorKind: FaxErrorKind };

/**
 * What the EHR does with the next send: accept it and reach an outcome
 * (`afterSeconds` later; the `faxOutcomeSeconds` setting when left out), or
 * refuse it at once.
 */
export type ScriptedFaxOutcome = (FaxOutcome & { afterSeconds?: number }) | { status: "ehr_send_failed" };

/** `handed_over`: given to webhook delivery; `dropped`: lost between commit and hand-over (seed 001, delivery guarantee 4). */
export type FaxAnnouncement = "handed_over" | "dropped";

export interface FaxRecord {
  fax: Fax;
  outcome: FaxOutcome;
  dueAt: number;
  announcement: FaxAnnouncement | null;
}

export interface NewFax {
  id: string;
  toNumber: string;
  patientId: string | null;
  documentIds: string[];
  pages: number;
}

const isoAt = (ms: number) => new Date(ms).toISOString();

export class FaxBook {
  private readonly records = new Map<string, FaxRecord>();
  private scripted: ScriptedFaxOutcome[] = [];
  private dropsPending = 0;

  constructor(readonly organizationId: string) {}

  /** The EHR's answer to the next send: the first scripted one, else delivered. */
  takeScriptedOutcome(): ScriptedFaxOutcome | undefined {
    return this.scripted.shift();
  }

  script(outcomes: readonly ScriptedFaxOutcome[]): void {
    this.scripted.push(...outcomes.map((outcome) => ({ ...outcome })));
  }

  scriptedOutcomes(): ScriptedFaxOutcome[] {
    return this.scripted.map((outcome) => ({ ...outcome }));
  }

  clearScript(): void {
    this.scripted = [];
  }

  /** The next `count` terminal transitions are committed but never announced. */
  dropNextAnnouncements(count: number): void {
    this.dropsPending += count;
  }

  pendingDrops(): number {
    return this.dropsPending;
  }

  /** A send the EHR accepted: `sent`, its outcome due `delaySeconds` later. */
  accept(input: NewFax, outcome: FaxOutcome, now: number, delaySeconds: number): FaxRecord {
    const stamp = isoAt(now);
    const record: FaxRecord = {
      fax: z.parse(faxSchema, { ...input, status: "sent", createdAt: stamp, updatedAt: stamp, errorKind: null, occurredAt: stamp }),
      outcome,
      dueAt: now + Math.max(0, delaySeconds) * 1000,
      announcement: null,
    };
    this.records.set(record.fax.id, record);
    return record;
  }

  get(id: string): FaxRecord | undefined {
    return this.records.get(id);
  }

  list(): FaxRecord[] {
    return [...this.records.values()];
  }

  /** Makes a fax's outcome due now (the sandbox's "complete now"). False when it is already terminal. */
  makeDue(id: string, now: number): boolean {
    const record = this.records.get(id);
    if (!record || record.fax.status !== "sent") return false;
    record.dueAt = Math.min(record.dueAt, now);
    return true;
  }

  /**
   * Commits every outcome that is due at `now` and returns the events to
   * announce, oldest first. The transition is stamped with the instant it
   * was due, not the instant it was noticed, so `occurredAt` does not depend
   * on when a sync or a read happened to run.
   */
  advance(now: number): WebhookEvent[] {
    const due = this.list()
      .filter((record) => record.fax.status === "sent" && record.dueAt <= now)
      .sort((a, b) => a.dueAt - b.dueAt || a.fax.id.localeCompare(b.fax.id));
    const events: WebhookEvent[] = [];
    for (const record of due) {
      const occurredAt = isoAt(record.dueAt);
      record.fax = z.parse(faxSchema, {
        ...record.fax,
        status: record.outcome.status,
        errorKind: record.outcome.status === "failed" ? record.outcome.errorKind : null,
        occurredAt,
        updatedAt: occurredAt,
      });
      if (this.dropsPending > 0) {
        this.dropsPending -= 1;
        record.announcement = "dropped";
        continue;
      }
      record.announcement = "handed_over";
      events.push({ type: "fax.status_changed", data: faxEventData(this.organizationId, record.fax), timestamp: occurredAt });
    }
    return events;
  }
}

function faxEventData(organizationId: string, fax: Fax): Record<string, unknown> {
  return z.parse(faxStatusChangedData, {
    id: fax.id,
    organizationId,
    status: fax.status,
    errorKind: fax.errorKind,
    occurredAt: fax.occurredAt,
    toNumber: fax.toNumber,
    patientId: fax.patientId,
    pages: fax.pages,
    createdAt: fax.createdAt,
  });
}

/** Every organization's fax book; reset forgets them all. */
export class FaxRegistry {
  private books = new Map<string, FaxBook>();

  bookOf(organizationId: string): FaxBook {
    let book = this.books.get(organizationId);
    if (!book) {
      book = new FaxBook(organizationId);
      this.books.set(organizationId, book);
    }
    return book;
  }

  reset(): void {
    this.books = new Map();
  }
}
