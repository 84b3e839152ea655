// Cached reads per organization (DESIGN.md "Upstream"). The cache only
// stores what `cache-policy.ts` allowed, with the expiry it computed; it is
// bounded in size and drops an entry the moment it expires.

interface Entry {
  route: string;
  expiresAt: number;
  value: unknown;
}

export interface ResponseCacheOptions {
  now: () => number;
  /** Entries kept across all organizations; the oldest is dropped first. */
  maxEntries?: number;
}

export class ResponseCache {
  private readonly byOrganization = new Map<string, Map<string, Entry>>();
  /** Bumped by `invalidate`, so a read that started before cannot store its older answer after. */
  private readonly generations = new Map<string, number>();
  private size = 0;
  private readonly maxEntries: number;

  constructor(private readonly options: ResponseCacheOptions) {
    this.maxEntries = options.maxEntries ?? 5_000;
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
    if (this.size > this.maxEntries) this.evict();
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

  private evict(): void {
    const now = this.options.now();
    for (const entries of this.byOrganization.values()) {
      for (const [key, entry] of entries) {
        if (entry.expiresAt <= now) {
          entries.delete(key);
          this.size -= 1;
        }
      }
    }
    // Still full: drop the oldest insertions, organization by organization.
    for (const [organization, entries] of this.byOrganization) {
      for (const key of entries.keys()) {
        if (this.size <= this.maxEntries) break;
        entries.delete(key);
        this.size -= 1;
      }
      if (entries.size === 0) this.byOrganization.delete(organization);
      if (this.size <= this.maxEntries) break;
    }
  }
}
