// Refresh ahead (ADR 0022; earned its place: ADR 0029). Every schedule entry
// made from one sync of an organization's mirror expires at the same moment
// (cache-policy.ts). Where the service's bound is longer than its sync
// interval, a newer sync exists before then: the first answer that shows it
// starts a refresh of the entries users are reading, one at a time, while the
// old ones still serve, so users do not meet all of an organization's
// searches missing at once. A refresh only replaces an entry: nothing is
// served past its bound.
//
// Two probes find a newer sync nothing else showed. A newer sync shown by one
// route is a hint for the others: each refreshes its most recently read entry
// once, and if that shows the newer sync too, the rest of the route follows.
// And an entry read in the last quarter of its life with no newer sync known
// is read again, at most once every `syncProbeEveryMs` per organization.

export interface RefreshAheadOptions<R> {
  now: () => number;
  /** Reads `request` again in the background; false when it could not (no room in the budget, or it failed). */
  refresh: (organization: string, request: R) => Promise<boolean>;
  /** Entries followed per organization (default 1000); past it the oldest simply expire. */
  maxEntriesPerOrganization?: number;
  /** The longest pause between two refreshes of one organization (default 250 ms; 0: none). */
  maxSpacingMs?: number;
  wait?: (ms: number) => Promise<void>;
  /** Default 2 s; 0: never. */
  syncProbeEveryMs?: number;
}

/** Only entries a user read this recently (and since they were fetched) are refreshed. */
const RECENT_READ_MS = 30_000;
const SYNC_PROBE_LEAD = 0.25;

const unrefWait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

interface Followed<R> {
  request: R;
  route: string;
  /** The answer's `sourceSyncedAt`, ms. */
  syncedAt: number;
  expiresAt: number;
  /** The last read from the cache since it was fetched. */
  readAt: number | null;
  /** Refreshed already, whatever came of it: at most once per fetch. */
  tried: boolean;
}

interface Organization<R> {
  /** Per route, the newest `sourceSyncedAt` seen (a service may sync its resources apart). */
  newestSyncedAt: Map<string, number>;
  /** The newest any route showed. */
  hintedSyncedAt: number;
  /** Per route, the hint its last probe was sent for. */
  probedFor: Map<string, number>;
  entries: Map<string, Followed<R>>;
  draining: boolean;
  syncProbedAt: number;
}

export class RefreshAhead<R> {
  private readonly organizations = new Map<string, Organization<R>>();

  constructor(private readonly options: RefreshAheadOptions<R>) {}

  /** An answer fetched and kept until `expiresAt`, made from the sync of `syncedAt`. */
  stored(organization: string, key: string, entry: { request: R; route: string; syncedAt: number; expiresAt: number }): void {
    let state = this.organizations.get(organization);
    if (!state) {
      state = { newestSyncedAt: new Map(), hintedSyncedAt: 0, probedFor: new Map(), entries: new Map(), draining: false, syncProbedAt: -Infinity };
      this.organizations.set(organization, state);
    }
    state.entries.delete(key);
    state.entries.set(key, { ...entry, readAt: null, tried: false });
    const now = this.options.now();
    for (const [followed, { expiresAt }] of state.entries) if (expiresAt <= now) state.entries.delete(followed);
    for (const followed of state.entries.keys()) {
      if (state.entries.size <= (this.options.maxEntriesPerOrganization ?? 1000)) break;
      state.entries.delete(followed);
    }
    const newerForRoute = entry.syncedAt > (state.newestSyncedAt.get(entry.route) ?? 0);
    const newerHint = entry.syncedAt > state.hintedSyncedAt;
    if (newerForRoute) state.newestSyncedAt.set(entry.route, entry.syncedAt);
    if (newerHint) state.hintedSyncedAt = entry.syncedAt;
    if (newerForRoute || newerHint) this.drain(organization, state);
  }

  /** A user's read served from the cache. */
  read(organization: string, key: string): void {
    const state = this.organizations.get(organization);
    const entry = state?.entries.get(key);
    if (!state || !entry) return;
    entry.readAt = this.options.now();
    if (this.isStale(state, entry) !== null) this.drain(organization, state);
    else if (this.isSyncProbeDue(state, entry)) {
      state.syncProbedAt = entry.readAt;
      this.drain(organization, state, entry);
    }
  }

  /** Entries dropped from the cache by a change the service announced. */
  forget(organization: string, routePrefix?: string): void {
    const entries = this.organizations.get(organization)?.entries ?? new Map<string, Followed<R>>();
    for (const [key, entry] of entries) if (routePrefix === undefined || entry.route.startsWith(routePrefix)) entries.delete(key);
  }

  /** Near its expiry, no newer sync known, none probed for lately. */
  private isSyncProbeDue(state: Organization<R>, entry: Followed<R>): boolean {
    const everyMs = this.options.syncProbeEveryMs ?? 2_000;
    const now = this.options.now();
    if (everyMs <= 0 || state.draining || entry.tried || now - state.syncProbedAt < everyMs) return false;
    if (entry.syncedAt < Math.max(state.hintedSyncedAt, state.newestSyncedAt.get(entry.route) ?? 0)) return false;
    return entry.expiresAt - now <= (entry.expiresAt - entry.syncedAt) * SYNC_PROBE_LEAD && entry.expiresAt > now;
  }

  /** One refresh at a time per organization: `syncProbe` first when given, then probes, then the most recently read, until none is due or one fails. */
  private drain(organization: string, state: Organization<R>, syncProbe?: Followed<R>): void {
    if (state.draining || (syncProbe === undefined && this.nextDue(state) === null)) return;
    state.draining = true;
    void this.refreshDue(organization, state, syncProbe);
  }

  private async refreshDue(organization: string, state: Organization<R>, syncProbe?: Followed<R>): Promise<void> {
    try {
      for (let due = syncProbe ? { entry: syncProbe, probe: false } : this.nextDue(state); due !== null; due = this.nextDue(state)) {
        const { entry, probe } = due;
        if (probe) state.probedFor.set(entry.route, state.hintedSyncedAt);
        entry.tried = true;
        if (!(await this.options.refresh(organization, entry.request))) break;
        const pause = this.spacingMs(state);
        if (pause > 0) await (this.options.wait ?? unrefWait)(pause);
      }
    } catch {
      // A failed refresh leaves its entry to expire, as any other.
    } finally {
      state.draining = false;
    }
  }

  /** The due refreshes spread over half the time left before the earliest of them expires, so the service and the intake get them apart. */
  private spacingMs(state: Organization<R>): number {
    const maxSpacingMs = this.options.maxSpacingMs ?? 250;
    let due = 0;
    let earliestExpiry = Infinity;
    for (const entry of state.entries.values()) {
      if (this.isStale(state, entry) === null) continue;
      due += 1;
      earliestExpiry = Math.min(earliestExpiry, entry.expiresAt);
    }
    if (maxSpacingMs <= 0 || due === 0) return 0;
    return Math.min(maxSpacingMs, Math.max(0, (earliestExpiry - this.options.now()) / 2 / due));
  }

  /** `known`: its route showed a newer sync; `maybe`: only another route did, and this one has not been probed for it; null: neither, or not to be refreshed. */
  private isStale(state: Organization<R>, entry: Followed<R>): "known" | "maybe" | null {
    const now = this.options.now();
    if (entry.tried || entry.expiresAt <= now || entry.readAt === null || now - entry.readAt > RECENT_READ_MS) return null;
    if (entry.syncedAt < (state.newestSyncedAt.get(entry.route) ?? 0)) return "known";
    if (entry.syncedAt < state.hintedSyncedAt && (state.probedFor.get(entry.route) ?? 0) < state.hintedSyncedAt) return "maybe";
    return null;
  }

  /** The most recently read entry due, probes first. */
  private nextDue(state: Organization<R>): { entry: Followed<R>; probe: boolean } | null {
    let due: { entry: Followed<R>; probe: boolean } | null = null;
    for (const entry of state.entries.values()) {
      const stale = this.isStale(state, entry);
      if (stale === null) continue;
      const probe = stale === "maybe";
      if (due === null || (probe && !due.probe) || (probe === due.probe && (entry.readAt ?? 0) > (due.entry.readAt ?? 0))) due = { entry, probe };
    }
    return due;
  }
}
