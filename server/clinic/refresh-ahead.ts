// A schedule read is cached until `sourceSyncedAt + maxStalenessSeconds`
// (DESIGN.md "Upstream"), and every entry made from one sync of an
// organization's mirror expires at the same moment. Where the service's bound
// is longer than its sync interval, a newer sync exists before that moment:
// the first answer that shows it starts a refresh of the entries users are
// reading, one at a time, while the old ones still serve. Users then meet
// fresh entries instead of all of the organization's searches missing at
// once, and the service and the intake get them one by one instead of in a
// burst. Nothing is ever served past its bound: a refresh only replaces an
// entry, and one not refreshed in time expires as before. Where the bound
// equals the sync interval, a newer sync appears only once the entries have
// expired, and nothing is refreshed.
//
// A newer sync is known per route (a service may sync its resources apart),
// but the answers that show it mostly come from one route: a route whose
// entries all hit (a clinic's few slot searches) sends nothing upstream until
// they expire. So a newer sync shown by any route of the organization is a
// hint for the others: each refreshes its most recently read entry once, as
// a probe, and if the probe's answer shows the newer sync too, the rest of
// that route's entries follow. docs/deploy.md "How many users one process
// serves".
//
// And where no read of the organization misses at all (every entry users
// read is kept), nothing would show the newer sync before the entries
// expire. So once the entry a user reads is in the last quarter of its
// lifetime with no newer sync known, it is read again as a probe, at most
// once every `syncProbeEveryMs` per organization (ADR 0022, third addendum).

export interface RefreshAheadOptions<R> {
  now: () => number;
  /** An entry is refreshed only if a user read it this recently (and since it was fetched). */
  recentReadMs: number;
  /** Entries followed per organization; past it, the oldest are forgotten (they simply expire). */
  maxEntriesPerOrganization: number;
  /** Reads `request` again, in the background; false when it could not (no room in the upstream budget, or it failed). */
  refresh: (organization: string, request: R) => Promise<boolean>;
  /**
   * The longest pause between two refreshes of one organization (default
   * 250 ms; 0: none). The pause spreads the refreshes due over the first half
   * of the time left before the earliest of them expires, so that the
   * service and the intake get them spread out rather than back to back.
   */
  maxSpacingMs?: number;
  /** Waits `ms` (default: a timer that does not keep the process alive). */
  wait?: (ms: number) => Promise<void>;
  /**
   * How often at most an organization's read entry near its expiry is read
   * again to find a newer sync nothing else showed (default 2 s; 0: never).
   */
  syncProbeEveryMs?: number;
}

const DEFAULT_MAX_SPACING_MS = 250;
const DEFAULT_SYNC_PROBE_EVERY_MS = 2_000;
/** The part of an entry's lifetime, at its end, in which reading it may probe for a newer sync. */
const SYNC_PROBE_LEAD = 0.25;

const unrefWait = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

interface Followed<R> {
  request: R;
  route: string;
  /** The answer's `sourceSyncedAt`, ms. */
  syncedAt: number;
  expiresAt: number;
  /** The last read from the cache since the answer was fetched; null: none yet. */
  readAt: number | null;
  /** Refreshed already (whatever came of it): an entry is refreshed at most once per fetch. */
  tried: boolean;
}

interface Organization<R> {
  /** Per route: the newest `sourceSyncedAt` an answer of the organization showed (a service may sync its resources apart). */
  newestSyncedAt: Map<string, number>;
  /** The newest `sourceSyncedAt` any route of the organization showed: a hint that the other routes may have synced too. */
  hintedSyncedAt: number;
  /** Per route: the hint its last probe was sent for (one probe per route and hint). */
  probedFor: Map<string, number>;
  entries: Map<string, Followed<R>>;
  draining: boolean;
  /** When an entry was last read again only to find a newer sync (-Infinity: never). */
  syncProbedAt: number;
}

export class RefreshAhead<R> {
  private readonly organizations = new Map<string, Organization<R>>();

  constructor(private readonly options: RefreshAheadOptions<R>) {}

  /** An answer fetched and cached until `expiresAt`, made from the sync of `syncedAt`. */
  stored(organization: string, key: string, entry: { request: R; route: string; syncedAt: number; expiresAt: number }): void {
    const state = this.organizationOf(organization);
    state.entries.delete(key);
    state.entries.set(key, { ...entry, readAt: null, tried: false });
    this.prune(state);
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

  /** Whether reading `entry` should read it again to find a newer sync: near its expiry, none known, none probed for lately. */
  private isSyncProbeDue(state: Organization<R>, entry: Followed<R>): boolean {
    const everyMs = this.options.syncProbeEveryMs ?? DEFAULT_SYNC_PROBE_EVERY_MS;
    const now = this.options.now();
    if (everyMs <= 0 || state.draining || entry.tried || now - state.syncProbedAt < everyMs) return false;
    if (entry.syncedAt < Math.max(state.hintedSyncedAt, state.newestSyncedAt.get(entry.route) ?? 0)) return false;
    return entry.expiresAt - now <= (entry.expiresAt - entry.syncedAt) * SYNC_PROBE_LEAD && entry.expiresAt > now;
  }

  /** Entries dropped from the cache (a change the service announced): not to be refreshed. */
  forget(organization: string, routePrefix?: string): void {
    const state = this.organizations.get(organization);
    if (!state) return;
    for (const [key, entry] of state.entries) if (routePrefix === undefined || entry.route.startsWith(routePrefix)) state.entries.delete(key);
  }

  /**
   * One refresh at a time per organization: `syncProbe` first when given,
   * then probes, then the most recently read, until none is due or one
   * cannot be made.
   */
  private drain(organization: string, state: Organization<R>, syncProbe?: Followed<R>): void {
    if (state.draining || (syncProbe === undefined && this.nextDue(state) === null)) return;
    state.draining = true;
    void this.refreshDue(organization, state, syncProbe);
  }

  /** `syncProbe`: an entry to read again first, to find a newer sync (then whatever its answer makes due). */
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
      // A refresh that failed leaves its entry to expire, as any other.
    } finally {
      state.draining = false;
    }
  }

  /** The pause before the next refresh: the due ones spread over half the time left before the earliest of them expires, at most `maxSpacingMs`. */
  private spacingMs(state: Organization<R>): number {
    const maxSpacingMs = this.options.maxSpacingMs ?? DEFAULT_MAX_SPACING_MS;
    if (maxSpacingMs <= 0) return 0;
    let due = 0;
    let earliestExpiry = Number.POSITIVE_INFINITY;
    for (const entry of state.entries.values()) {
      if (this.isStale(state, entry) === null) continue;
      due += 1;
      earliestExpiry = Math.min(earliestExpiry, entry.expiresAt);
    }
    if (due === 0) return 0;
    return Math.min(maxSpacingMs, Math.max(0, (earliestExpiry - this.options.now()) / 2 / due));
  }

  /**
   * Whether a newer sync than the entry's exists: `known` when an answer of
   * its route showed one, `maybe` when only another route did and this route
   * has not been probed for it, null otherwise (or when the entry is not to
   * be refreshed: tried already, expired, or not read recently).
   */
  private isStale(state: Organization<R>, entry: Followed<R>): "known" | "maybe" | null {
    const now = this.options.now();
    if (entry.tried || entry.expiresAt <= now || entry.readAt === null || now - entry.readAt > this.options.recentReadMs) return null;
    if (entry.syncedAt < (state.newestSyncedAt.get(entry.route) ?? 0)) return "known";
    if (entry.syncedAt < state.hintedSyncedAt && (state.probedFor.get(entry.route) ?? 0) < state.hintedSyncedAt) return "maybe";
    return null;
  }

  /**
   * The most recently read entry to refresh, probes first: one read, at most
   * one per route, that may make all of its route's entries due.
   */
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

  private organizationOf(organization: string): Organization<R> {
    let state = this.organizations.get(organization);
    if (!state) {
      state = { newestSyncedAt: new Map(), hintedSyncedAt: 0, probedFor: new Map(), entries: new Map(), draining: false, syncProbedAt: Number.NEGATIVE_INFINITY };
      this.organizations.set(organization, state);
    }
    return state;
  }

  /** Drops expired entries, then the oldest past the bound. */
  private prune(state: Organization<R>): void {
    const now = this.options.now();
    for (const [key, entry] of state.entries) if (entry.expiresAt <= now) state.entries.delete(key);
    for (const key of state.entries.keys()) {
      if (state.entries.size <= this.options.maxEntriesPerOrganization) break;
      state.entries.delete(key);
    }
  }
}
