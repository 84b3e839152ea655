import { randomUUID } from "node:crypto";
import type { Installation } from "#contract/clinic-api/installation.ts";
import type { Task } from "#contract/clinic-api/note.ts";
import type { Clock } from "../clock.ts";
import type { EmulatorDomain } from "../domains/domain.ts";
import type { WebhookDispatcher, WebhookEvent } from "../webhooks/webhook-dispatcher.ts";
import type { EhrOrganization, SeededWorld } from "../world/types.ts";
import { REQUIRED_SCOPES } from "../world/identities.ts";
import { mirrorOf, syncMirror, type OrgMirror, type SyncResult } from "./mirror-sync.ts";

// Everything the emulated service holds: per organization the EHR (source of
// truth), the service's mirror of it, the installation, holds and tasks.

export interface HoldRecord {
  id: string;
  organizationId: string;
  providerId: string;
  facilityId: string;
  startsAt: string;
  endsAt: string;
  startsAtMs: number;
  endsAtMs: number;
  appointmentTypeId: string;
  slotLengthMinutes: number;
  isNewPatient: boolean;
  createdAt: string;
  expiresAtMs: number;
  releasedAt: string | null;
}

export interface OrgState {
  ehr: EhrOrganization;
  mirror: OrgMirror;
  installation: Installation;
  holds: Map<string, HoldRecord>;
  tasks: Task[];
  /** Answers kept by `Idempotency-Key` (emulator/http/idempotent-writes.ts), oldest first. */
  idempotentAnswers: Map<string, IdempotentAnswer>;
}

/** A write's first answer, replayed to the same key and body (docs/assumed-contracts.md "Idempotency-Key"). */
export interface IdempotentAnswer {
  body: string;
  status: number;
  answer: string;
  atMs: number;
}

/** Data events and the scope an installation must grant for them (seed 001, event catalogue). */
const EVENT_SCOPES: Record<string, string> = {
  appointment: "read:appointments",
  facility: "read:facilities",
  provider: "read:providers",
  patient_document: "read:patient_documents",
  fax: "read:faxes",
};

export interface ServiceStateOptions {
  clock: Clock;
  dispatcher: WebhookDispatcher;
  generate: (now: number) => SeededWorld;
  syncIntervalSeconds: number;
  /**
   * Each organization's mirror synced at its own moment, spread evenly over
   * one interval, as a real service syncs its tenants; default false (all at
   * the seed's instant, which the tests' pinned clocks rely on). Without it,
   * every organization's cached schedule reads expire in the same second.
   */
  staggerSyncs?: boolean;
}

export class ServiceState {
  private orgs = new Map<string, OrgState>();
  private generatedAt: number;
  private readonly domains: EmulatorDomain[] = [];

  constructor(private readonly options: ServiceStateOptions) {
    this.generatedAt = options.clock.now();
    this.load();
  }

  /** Back to the seeded state, generated at the same instant as the first time (deterministic). */
  reset(): void {
    this.load();
    for (const domain of this.domains) domain.reset();
  }

  /** A part of the service beside the core (see emulator/domains/domain.ts). */
  addDomain(domain: EmulatorDomain): void {
    this.domains.push(domain);
  }

  /** When the seeded data was generated (the clock a domain's seed data is relative to). */
  seededAt(): number {
    return this.generatedAt;
  }

  private load(): void {
    const world = this.options.generate(this.generatedAt);
    this.orgs = new Map();
    const installed = world.organizations.filter((ehr) => world.installations.some((installation) => installation.organizationId === ehr.id));
    const intervalMs = this.options.syncIntervalSeconds * 1000;
    installed.forEach((ehr, index) => {
      const seeded = world.installations.find((installation) => installation.organizationId === ehr.id);
      if (!seeded) return;
      const syncedAt = this.options.staggerSyncs === true ? this.generatedAt - Math.floor((index * intervalMs) / installed.length) : this.generatedAt;
      this.orgs.set(ehr.id, { ehr, mirror: mirrorOf(ehr, syncedAt), installation: { ...seeded }, holds: new Map(), tasks: [], idempotentAnswers: new Map() });
    });
  }

  org(organizationId: string): OrgState | undefined {
    return this.orgs.get(organizationId.toLowerCase());
  }

  organizations(): OrgState[] {
    return [...this.orgs.values()];
  }

  /** Required scopes plus the installation's grants (DESIGN.md). */
  grantedScopes(state: OrgState): Set<string> {
    return new Set([...REQUIRED_SCOPES, ...state.installation.grantedPermissions]);
  }

  /** Runs the sync when its interval has passed on the emulator's clock. */
  syncIfDue(): void {
    const now = this.options.clock.now();
    for (const state of this.orgs.values()) {
      if (now - state.mirror.syncedAt >= this.options.syncIntervalSeconds * 1000) this.syncOrganization(state);
    }
  }

  sync(organizationId?: string): SyncResult[] {
    const targets = organizationId ? [this.org(organizationId)].filter((state) => state !== undefined) : [...this.orgs.values()];
    return targets.map((state) => this.syncOrganization(state));
  }

  private syncOrganization(state: OrgState): SyncResult {
    const now = this.options.clock.now();
    const result = syncMirror(state.ehr, state.mirror, now);
    for (const domain of this.domains) result.events.push(...(domain.onSync?.(state, now) ?? []));
    result.events = this.emitForOrganization(state, result.events);
    return result;
  }

  /**
   * Sends data events of one organization: none when its installation is not
   * active, and only those whose scope it grants (seed 001, event catalogue).
   * Returns what was sent.
   */
  emitForOrganization(state: OrgState, events: WebhookEvent[]): WebhookEvent[] {
    if (state.installation.status !== "active") return [];
    const granted = this.grantedScopes(state);
    const allowed = events.filter((event) => {
      const family = event.type.split(".")[0] ?? "";
      // A family without a listed scope (sync_request.completed) names its scope on the event; none means not sent.
      const scope = EVENT_SCOPES[family] ?? event.scope;
      return scope !== undefined && granted.has(scope);
    });
    this.emit(allowed);
    return allowed;
  }

  emit(events: WebhookEvent[]): string[] {
    return events.length > 0 ? this.options.dispatcher.send(events) : [];
  }

  newId(): string {
    return randomUUID();
  }

  /** Hold records whose status is computed against the emulator's clock. */
  holdStatus(hold: HoldRecord): "active" | "released" | "expired" {
    if (hold.releasedAt !== null) return "released";
    return this.options.clock.now() >= hold.expiresAtMs ? "expired" : "active";
  }

  activeHolds(state: OrgState): HoldRecord[] {
    return [...state.holds.values()].filter((hold) => this.holdStatus(hold) === "active");
  }
}
