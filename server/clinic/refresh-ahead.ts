// A schedule read is cached until `sourceSyncedAt + maxStalenessSeconds`
// (DESIGN.md "Upstream"), and every entry made from one sync of an
// organization's mirror expires at the same moment. Where the service's bound
// is longer than its sync interval, a newer sync exists before that moment:
// the first answer that shows it (any read of the organization) starts a
// refresh of the entries users are reading, one at a time, while the old ones
// still serve. Users then meet fresh entries instead of all of the
// organization's searches missing at once, and the service and the intake get
// them one by one instead of in a burst. Nothing is ever served past its
// bound: a refresh only replaces an entry, and one not refreshed in time
// expires as before. Where the bound equals the sync interval, a newer sync
// appears only once the entries have expired, and nothing is refreshed.
// docs/deploy.md "How many users one process serves".

export interface RefreshAheadOptions<R> {
  now: () => number;
  /** An entry is refreshed only if a user read it this recently (and since it was fetched). */
  recentReadMs: number;
  /** Entries followed per organization; past it, the oldest are forgotten (they simply expire). */
  maxEntriesPerOrganization: number;
  /** Reads `request` again, in the background; false when it could not (no room in the upstream budget, or it failed). */
  refresh: (organization: string, request: R) => Promise<boolean>;
}

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
  entries: Map<string, Followed<R>>;
  draining: boolean;
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
    if (entry.syncedAt > (state.newestSyncedAt.get(entry.route) ?? 0)) {
      state.newestSyncedAt.set(entry.route, entry.syncedAt);
      this.drain(organization, state);
    }
  }

  /** A user's read served from the cache. */
  read(organization: string, key: string): void {
    const state = this.organizations.get(organization);
    const entry = state?.entries.get(key);
    if (!state || !entry) return;
    entry.readAt = this.options.now();
    if (!entry.tried && entry.syncedAt < (state.newestSyncedAt.get(entry.route) ?? 0)) this.drain(organization, state);
  }

  /** Entries dropped from the cache (a change the service announced): not to be refreshed. */
  forget(organization: string, routePrefix?: string): void {
    const state = this.organizations.get(organization);
    if (!state) return;
    for (const [key, entry] of state.entries) if (routePrefix === undefined || entry.route.startsWith(routePrefix)) state.entries.delete(key);
  }

  /** One refresh at a time per organization, the most recently read first, until none is due or one cannot be made. */
  private drain(organization: string, state: Organization<R>): void {
    if (state.draining || this.nextDue(state) === null) return;
    state.draining = true;
    void this.refreshDue(organization, state);
  }

  private async refreshDue(organization: string, state: Organization<R>): Promise<void> {
    try {
      for (let entry = this.nextDue(state); entry !== null; entry = this.nextDue(state)) {
        entry.tried = true;
        if (!(await this.options.refresh(organization, entry.request))) break;
      }
    } catch {
      // A refresh that failed leaves its entry to expire, as any other.
    } finally {
      state.draining = false;
    }
  }

  private nextDue(state: Organization<R>): Followed<R> | null {
    const now = this.options.now();
    let due: Followed<R> | null = null;
    for (const entry of state.entries.values()) {
      if (entry.tried || entry.syncedAt >= (state.newestSyncedAt.get(entry.route) ?? 0) || entry.expiresAt <= now || entry.readAt === null || now - entry.readAt > this.options.recentReadMs) continue;
      if (due === null || entry.readAt > (due.readAt ?? 0)) due = entry;
    }
    return due;
  }

  private organizationOf(organization: string): Organization<R> {
    let state = this.organizations.get(organization);
    if (!state) {
      state = { newestSyncedAt: new Map(), entries: new Map(), draining: false };
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
