// Cached reads per organization (DESIGN.md "Upstream"). The cache only
// stores what `cache-policy.ts` allowed, with the expiry it computed; it
// drops an entry the moment it expires. It is bounded per organization and
// in total so that one organization's distinct queries cannot push the
// others' answers out (ADR 0017): past its own bound an organization
// loses its own oldest entries; past the total, the organization holding
// the most loses its oldest, so one holding no more than the others is never
// evicted by another's reads. Both bounds count entries and the bytes each
// answer is kept as (the upstream client keeps its gzip: shared-answer.ts),
// so a few large answers cannot hold more memory than many small ones
// (docs/operations.md "What the BFF keeps in memory").

interface Entry {
  route: string;
  expiresAt: number;
  value: unknown;
  /** The bytes the answer is kept as: the size it is bounded by. */
  weight: number;
}

interface Holding {
  entries: Map<string, Entry>;
  weight: number;
}

export interface ResponseCacheOptions {
  now: () => number;
  /** Entries kept across all organizations; default 5000. */
  maxEntries?: number;
  /** Entries kept for one organization; default a fifth of `maxEntries`. */
  maxEntriesPerOrganization?: number;
  /** Answers kept across all organizations, by the bytes each is kept as; default 16 MiB. */
  maxWeight?: number;
  /** The same for one organization; default a fifth of `maxWeight`. */
  maxWeightPerOrganization?: number;
}

export const DEFAULT_MAX_CACHE_ENTRIES = 5_000;
export const DEFAULT_MAX_CACHE_WEIGHT = 16 * 1024 * 1024;

const weightOf = (value: unknown): number => JSON.stringify(value)?.length ?? 0;

/** Expired entries are swept at most this often when the cache is full (else each insertion would scan it). */
const SWEEP_INTERVAL_MS = 1_000;

export class ResponseCache {
  private readonly byOrganization = new Map<string, Holding>();
  /** Bumped by `invalidate`, so a read that started before cannot store its older answer after. */
  private readonly generations = new Map<string, number>();
  private size = 0;
  private weight = 0;
  private readonly maxEntries: number;
  /** Entries kept for one organization at most. */
  readonly maxPerOrganization: number;
  private readonly maxWeight: number;
  private readonly maxWeightPerOrganization: number;
  private lastSweep = -Infinity;

  constructor(private readonly options: ResponseCacheOptions) {
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_CACHE_ENTRIES;
    this.maxPerOrganization = Math.min(this.maxEntries, options.maxEntriesPerOrganization ?? Math.max(1, Math.floor(this.maxEntries / 5)));
    this.maxWeight = options.maxWeight ?? DEFAULT_MAX_CACHE_WEIGHT;
    this.maxWeightPerOrganization = Math.min(this.maxWeight, options.maxWeightPerOrganization ?? Math.floor(this.maxWeight / 5));
  }

  /** Entries held for `organization` (expired ones not yet dropped included). */
  sizeOf(organization: string): number {
    return this.byOrganization.get(organization)?.entries.size ?? 0;
  }

  totalSize(): number {
    return this.size;
  }

  /** The weight of the answers held for `organization`, or for all. */
  weightOf(organization?: string): number {
    return organization === undefined ? this.weight : (this.byOrganization.get(organization)?.weight ?? 0);
  }

  get(organization: string, key: string): unknown {
    const holding = this.byOrganization.get(organization);
    const entry = holding?.entries.get(key);
    if (!holding || !entry) return undefined;
    if (entry.expiresAt <= this.options.now()) {
      this.remove(organization, holding, key, entry);
      return undefined;
    }
    return entry.value;
  }

  generation(organization: string): number {
    return this.generations.get(organization) ?? 0;
  }

  /**
   * Stores unless the organization's cache was invalidated since `generation`
   * was read, or the answer alone is over the organization's bound. `weight`
   * is the bytes the value is kept as; by default its JSON length.
   */
  set(organization: string, key: string, route: string, value: unknown, expiresAt: number, generation: number, weight = weightOf(value)): void {
    if (generation !== this.generation(organization) || expiresAt <= this.options.now()) return;
    let holding = this.byOrganization.get(organization);
    const previous = holding?.entries.get(key);
    if (holding && previous) this.remove(organization, holding, key, previous);
    if (weight > this.maxWeightPerOrganization) return;
    holding = this.byOrganization.get(organization);
    if (!holding) {
      holding = { entries: new Map(), weight: 0 };
      this.byOrganization.set(organization, holding);
    }
    holding.entries.set(key, { route, expiresAt, value, weight });
    holding.weight += weight;
    this.size += 1;
    this.weight += weight;
    const own = holding;
    const ownOver = () => own.entries.size > this.maxPerOrganization || own.weight > this.maxWeightPerOrganization;
    const totalOver = () => this.size > this.maxEntries || this.weight > this.maxWeight;
    if (ownOver() || totalOver()) this.sweepExpired();
    while (ownOver()) this.dropOldest(organization, own);
    while (totalOver()) {
      const largest = this.largestOrganization(organization, this.size > this.maxEntries ? "entries" : "weight");
      if (!largest) break;
      this.dropOldest(largest[0], largest[1]);
    }
  }

  /** Drops the organization's entries, or those of routes starting with `prefix` (e.g. "GET /v2/schedule/slots"). */
  invalidate(organization: string, prefix?: string): void {
    this.generations.set(organization, this.generation(organization) + 1);
    const holding = this.byOrganization.get(organization);
    if (!holding) return;
    for (const [key, entry] of holding.entries) {
      if (prefix === undefined || entry.route.startsWith(prefix)) this.remove(organization, holding, key, entry);
    }
  }

  clear(): void {
    this.byOrganization.clear();
    this.size = 0;
    this.weight = 0;
  }

  private remove(organization: string, holding: Holding, key: string, entry: Entry): void {
    holding.entries.delete(key);
    holding.weight -= entry.weight;
    this.size -= 1;
    this.weight -= entry.weight;
    if (holding.entries.size === 0) this.byOrganization.delete(organization);
  }

  private sweepExpired(): void {
    const now = this.options.now();
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    for (const [organization, holding] of this.byOrganization) {
      for (const [key, entry] of holding.entries) {
        if (entry.expiresAt <= now) this.remove(organization, holding, key, entry);
      }
    }
  }

  /** Maps keep insertion order: the first key is the oldest (a replaced entry was re-inserted). */
  private dropOldest(organization: string, holding: Holding): void {
    const oldest = holding.entries.entries().next();
    if (oldest.done === true) return;
    this.remove(organization, holding, oldest.value[0], oldest.value[1]);
  }

  /** The organization holding the most entries or the most weight; `preferred` (the one inserting) on a tie. */
  private largestOrganization(preferred: string, by: "entries" | "weight"): [string, Holding] | undefined {
    const measure = (holding: Holding) => (by === "entries" ? holding.entries.size : holding.weight);
    let largest = this.byOrganization.get(preferred);
    let name = preferred;
    for (const [organization, holding] of this.byOrganization) {
      if (!largest || measure(holding) > measure(largest)) {
        largest = holding;
        name = organization;
      }
    }
    return largest ? [name, largest] : undefined;
  }
}
