// Cached reads per organization (DESIGN.md "Upstream"). The cache only
// stores what `cache-policy.ts` allowed, with the expiry it computed; it
// drops an entry the moment it expires. It is bounded per organization and
// in total so that one organization's distinct queries cannot push the
// others' answers out (issue 15 item 1): past its own bound an organization
// loses its own oldest entries; past the total, the organization holding
// the most loses its oldest, so one holding no more than the others is never
// evicted by another's reads.

interface Entry {
  route: string;
  expiresAt: number;
  value: unknown;
}

export interface ResponseCacheOptions {
  now: () => number;
  /** Entries kept across all organizations; default 5000. */
  maxEntries?: number;
  /** Entries kept for one organization; default a fifth of `maxEntries`. */
  maxEntriesPerOrganization?: number;
}

/** Expired entries are swept at most this often when the cache is full (else each insertion would scan it). */
const SWEEP_INTERVAL_MS = 1_000;

export class ResponseCache {
  private readonly byOrganization = new Map<string, Map<string, Entry>>();
  /** Bumped by `invalidate`, so a read that started before cannot store its older answer after. */
  private readonly generations = new Map<string, number>();
  private size = 0;
  private readonly maxEntries: number;
  private readonly maxPerOrganization: number;
  private lastSweep = -Infinity;

  constructor(private readonly options: ResponseCacheOptions) {
    this.maxEntries = options.maxEntries ?? 5_000;
    this.maxPerOrganization = Math.min(this.maxEntries, options.maxEntriesPerOrganization ?? Math.max(1, Math.floor(this.maxEntries / 5)));
  }

  /** Entries held for `organization` (expired ones not yet dropped included). */
  sizeOf(organization: string): number {
    return this.byOrganization.get(organization)?.size ?? 0;
  }

  totalSize(): number {
    return this.size;
  }

  get(organization: string, key: string): unknown {
    const entries = this.byOrganization.get(organization);
    const entry = entries?.get(key);
    if (!entries || !entry) return undefined;
    if (entry.expiresAt <= this.options.now()) {
      entries.delete(key);
      this.size -= 1;
      return undefined;
    }
    return entry.value;
  }

  generation(organization: string): number {
    return this.generations.get(organization) ?? 0;
  }

  /** Stores unless the organization's cache was invalidated since `generation` was read. */
  set(organization: string, key: string, route: string, value: unknown, expiresAt: number, generation: number): void {
    if (generation !== this.generation(organization) || expiresAt <= this.options.now()) return;
    let entries = this.byOrganization.get(organization);
    if (!entries) {
      entries = new Map();
      this.byOrganization.set(organization, entries);
    }
    if (entries.delete(key)) this.size -= 1;
    entries.set(key, { route, expiresAt, value });
    this.size += 1;
    if (entries.size > this.maxPerOrganization || this.size > this.maxEntries) this.sweepExpired();
    if (entries.size > this.maxPerOrganization) this.dropOldest(organization, entries);
    while (this.size > this.maxEntries) {
      const largest = this.largestOrganization(organization);
      if (!largest) break;
      this.dropOldest(largest[0], largest[1]);
    }
  }

  /** Drops the organization's entries, or those of routes starting with `prefix` (e.g. "GET /v2/schedule/slots"). */
  invalidate(organization: string, prefix?: string): void {
    this.generations.set(organization, this.generation(organization) + 1);
    const entries = this.byOrganization.get(organization);
    if (!entries) return;
    for (const [key, entry] of entries) {
      if (prefix === undefined || entry.route.startsWith(prefix)) {
        entries.delete(key);
        this.size -= 1;
      }
    }
    if (entries.size === 0) this.byOrganization.delete(organization);
  }

  clear(): void {
    this.byOrganization.clear();
    this.size = 0;
  }

  private sweepExpired(): void {
    const now = this.options.now();
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    for (const [organization, entries] of this.byOrganization) {
      for (const [key, entry] of entries) {
        if (entry.expiresAt <= now) {
          entries.delete(key);
          this.size -= 1;
        }
      }
      if (entries.size === 0) this.byOrganization.delete(organization);
    }
  }

  /** Maps keep insertion order: the first key is the oldest (a replaced entry was re-inserted). */
  private dropOldest(organization: string, entries: Map<string, Entry>): void {
    const oldest = entries.keys().next();
    if (oldest.done === true) return;
    entries.delete(oldest.value);
    this.size -= 1;
    if (entries.size === 0) this.byOrganization.delete(organization);
  }

  /** The organization holding the most entries; `preferred` (the one inserting) on a tie. */
  private largestOrganization(preferred: string): [string, Map<string, Entry>] | undefined {
    let largest = this.byOrganization.get(preferred);
    let name = preferred;
    for (const [organization, entries] of this.byOrganization) {
      if (!largest || entries.size > largest.size) {
        largest = entries;
        name = organization;
      }
    }
    return largest ? [name, largest] : undefined;
  }
}
