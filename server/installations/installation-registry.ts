import type { Installation } from "#contract/clinic-api/installation.ts";
import type { Logger } from "../logger.ts";
import type { InstallationRepository, StoredInstallation } from "../store/store.ts";

// DESIGN.md "Installations": learnt from the installations list at start-up,
// whenever a token names an organization the BFF does not know, and nightly;
// lifecycle events keep them current between. A 403 from the service is told
// apart (missing scope vs organization not active) from this table.

export interface InstallationRegistryDeps {
  repository: InstallationRepository;
  fetchInstallations: () => Promise<Installation[]>;
  requiredScopes: readonly string[];
  logger: Logger;
  now?: () => number;
  /** Floor between list refreshes triggered by unknown organizations. */
  refreshFloorMs?: number;
  /** A stored record was written (other BFF processes are told, so they forget theirs; an inactive one's live streams end). */
  onChanged?: (installation: StoredInstallation) => void;
}

export type LifecycleEventType = "app.installed" | "app.uninstalled" | "app.suspended" | "app.reactivated" | "installation.permissions_updated";

/**
 * Every /api request looks its organization up: served from memory for a
 * short while, and refreshed from the store after. Another BFF process
 * sharing PostgreSQL that changes the row says so over the live-event bus,
 * and `forget` drops the memory at once; this bound covers a missed message.
 */
const MEMORY_TTL_MS = 30_000;

export class InstallationRegistry {
  private lastRefreshAt = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<number> | null = null;
  private readonly remembered = new Map<string, { installation: StoredInstallation; until: number }>();

  constructor(private readonly deps: InstallationRegistryDeps) {}

  /** Fills the table from the service's list; returns how many records were written. */
  refresh(): Promise<number> {
    this.refreshing ??= (async () => {
      try {
        const installations = await this.deps.fetchInstallations();
        let written = 0;
        for (const installation of installations) {
          const stored: StoredInstallation = { ...installation, organizationId: installation.organizationId.toLowerCase() };
          if (await this.deps.repository.upsertIfNewer(stored)) {
            written += 1;
            this.deps.onChanged?.(stored);
          }
        }
        this.remembered.clear();
        this.deps.logger.info({ installations: installations.length, written }, "installations reconciled");
        return written;
      } finally {
        this.lastRefreshAt = (this.deps.now ?? Date.now)();
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  private async load(organizationId: string): Promise<StoredInstallation | null> {
    const stored = await this.deps.repository.get(organizationId);
    if (stored) this.remembered.set(organizationId, { installation: stored, until: this.now() + MEMORY_TTL_MS });
    else this.remembered.delete(organizationId);
    return stored;
  }

  /**
   * The installation of an organization; an unknown or inactive one triggers
   * a refresh (at most once per floor). Inactive too: a reactivation sends no
   * event (seed 001: `app.reactivated` "not emitted yet"), and a refused
   * organization makes no upstream call whose 403 could start a reconcile,
   * so without this it would stay locked out until the nightly reconcile.
   */
  async find(organizationId: string): Promise<StoredInstallation | null> {
    const id = organizationId.toLowerCase();
    const remembered = this.remembered.get(id);
    if (remembered && remembered.until > this.now()) return remembered.installation;
    const known = await this.load(id);
    if (known?.status === "active") return known;
    const now = (this.deps.now ?? Date.now)();
    if (this.refreshing === null && now - this.lastRefreshAt < (this.deps.refreshFloorMs ?? 30_000)) return known;
    try {
      await this.refresh();
    } catch (error) {
      this.deps.logger.warn({ err: error, organizationId: id }, "installations refresh failed");
      return known;
    }
    return this.load(id);
  }

  /**
   * The service refused a call with 403: our table may be behind (a missed
   * lifecycle event). Reconcile in the background, at most once per floor.
   */
  reconcileSoon(): void {
    if (this.refreshing !== null || this.now() - this.lastRefreshAt < (this.deps.refreshFloorMs ?? 30_000)) return;
    this.refresh().catch((error: unknown) => this.deps.logger.warn({ err: error }, "installations reconcile after a 403 failed"));
  }

  /** Drops what is remembered of one organization (another process changed its record), or of all; the next lookup reads the store. */
  forget(organizationId?: string): void {
    if (organizationId === undefined) this.remembered.clear();
    else this.remembered.delete(organizationId.toLowerCase());
  }

  grantedScopes(installation: StoredInstallation): Set<string> {
    return new Set([...this.deps.requiredScopes, ...installation.grantedPermissions]);
  }

  /** Applies a lifecycle event (seed 001 event catalogue); returns the stored record afterwards. */
  async applyLifecycleEvent(type: LifecycleEventType, data: { organizationId: string; grantedPermissions?: string[]; settings?: Record<string, unknown> }, timestamp: string): Promise<StoredInstallation | null> {
    const organizationId = data.organizationId.toLowerCase();
    const current = await this.deps.repository.get(organizationId);
    if (type === "installation.permissions_updated" && data.grantedPermissions === undefined) {
      // The payload is not shown by the seeds; without the grants, ask the list.
      await this.refresh();
      return this.load(organizationId);
    }
    const base: StoredInstallation = current ?? { organizationId, status: "uninstalled", grantedPermissions: [], settings: {}, installedAt: null, updatedAt: timestamp };
    const next: StoredInstallation = { ...base, updatedAt: timestamp };
    switch (type) {
      case "app.installed":
        Object.assign(next, { status: "active", installedAt: timestamp, grantedPermissions: data.grantedPermissions ?? [], settings: data.settings ?? {} });
        break;
      case "app.uninstalled":
        next.status = "uninstalled";
        break;
      case "app.suspended":
        next.status = "suspended";
        break;
      case "app.reactivated":
        next.status = "active";
        break;
      case "installation.permissions_updated":
        next.grantedPermissions = data.grantedPermissions ?? base.grantedPermissions;
        break;
    }
    if (await this.deps.repository.upsertIfNewer(next)) this.deps.onChanged?.(next);
    return this.load(organizationId);
  }

  /** The nightly reconciliation; returns a stop function. */
  startNightlyReconcile(intervalMs = 24 * 60 * 60 * 1000): () => void {
    const timer = setInterval(() => {
      this.refresh().catch((error: unknown) => this.deps.logger.warn({ err: error }, "nightly installations reconcile failed"));
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}
