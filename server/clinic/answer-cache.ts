import { LRUCache } from "lru-cache";
import { idKey } from "#contract/ids.ts";
import type { SharedAnswer } from "./shared-answer.ts";

// The kept answers of shared routes, as their bytes. Each organization has
// its own LRU bounded by bytes, so one organization's distinct queries push
// out only its own answers (ADR 0017); past the total, the organization
// holding the most loses its least recently used. An organization is
// forgotten once its longest-lived answer has expired.

/** What a request covers, for an invalidation by facility and date: null where it names none (it covers every one). */
export interface RequestScope {
  facilityKeys: readonly string[] | null;
  fromDate: string | null;
  toDate: string | null;
}

/** What a change touches: the routes starting with `routePrefix`, optionally only for `facilityId` on the local `date` (YYYY-MM-DD). */
export interface Invalidation {
  routePrefix?: string;
  facilityId?: string;
  date?: string;
}

interface Entry {
  route: string;
  scope: RequestScope;
  answer: SharedAnswer<object>;
  expiresAt: number;
}

interface Organization {
  answers: LRUCache<string, Entry>;
  /** When its longest-lived answer expires: the organization is forgotten after. */
  expiresAt: number;
}

interface AnswerCacheOptions {
  now: () => number;
  /** Bytes kept across all organizations; default 16 MiB. */
  maxBytes?: number;
  /** Default a fifth of `maxBytes`. */
  maxBytesPerOrganization?: number;
  maxEntriesPerOrganization?: number;
}

const DAY_MS = 86_400_000;
const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** Whether a kept answer or a read in flight, with its route and scope, is touched by the change. A request's local dates, widened by a day either side, may hold a change given by its UTC day. */
export function isTouched(route: string, scope: RequestScope, change: Invalidation): boolean {
  if (change.routePrefix !== undefined && !route.startsWith(change.routePrefix)) return false;
  if (change.facilityId !== undefined && scope.facilityKeys !== null && !scope.facilityKeys.includes(idKey(change.facilityId))) return false;
  if (change.date === undefined) return true;
  const day = dayOf(change.date);
  return (scope.fromDate === null || day >= dayOf(scope.fromDate) - DAY_MS) && (scope.toDate === null || day <= dayOf(scope.toDate) + DAY_MS);
}

/** The facilities and dates a request's query names (`facilityId`/`facilityIds`, `startDate`/`endDate` or `dateFrom`/`dateTo`). */
export function scopeOf(target: string): RequestScope {
  const query = new URLSearchParams(target.split("?")[1] ?? "");
  const facilities = query.get("facilityIds") ?? query.get("facilityId");
  return {
    facilityKeys: facilities === null ? null : facilities.split(",").map(idKey),
    fromDate: query.get("startDate") ?? query.get("dateFrom"),
    toDate: query.get("endDate") ?? query.get("dateTo"),
  };
}

/** Expired organizations are looked for at most this often, not on each insertion. */
const SWEEP_INTERVAL_MS = 1_000;

export class AnswerCache {
  private readonly organizations = new Map<string, Organization>();
  private readonly maxBytes: number;
  private readonly maxBytesPerOrganization: number;
  private readonly maxEntriesPerOrganization: number;
  private lastSweep = -Infinity;

  constructor(private readonly options: AnswerCacheOptions) {
    this.maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
    this.maxBytesPerOrganization = Math.min(this.maxBytes, options.maxBytesPerOrganization ?? Math.floor(this.maxBytes / 5));
    this.maxEntriesPerOrganization = options.maxEntriesPerOrganization ?? 1000;
  }

  get(organization: string, key: string): SharedAnswer<object> | undefined {
    const held = this.organizations.get(organization);
    const entry = held?.answers.get(key);
    if (held === undefined || entry === undefined) return undefined;
    // The LRU bounds bytes; expiry is the cache policy's, checked here.
    if (entry.expiresAt > this.options.now()) return entry.answer;
    held.answers.delete(key);
    return undefined;
  }

  /** Keeps `answer` until `expiresAt` (unless larger than an organization may hold). */
  set(organization: string, key: string, route: string, scope: RequestScope, answer: SharedAnswer<object>, expiresAt: number): void {
    const now = this.options.now();
    this.sweep(now);
    if (expiresAt <= now || answer.weight > this.maxBytesPerOrganization) return;
    let held = this.organizations.get(organization);
    if (held === undefined) {
      const answers = new LRUCache<string, Entry>({ max: this.maxEntriesPerOrganization, maxSize: this.maxBytesPerOrganization, sizeCalculation: (entry) => Math.max(1, entry.answer.weight) });
      held = { answers, expiresAt: 0 };
      this.organizations.set(organization, held);
    }
    held.answers.set(key, { route, scope, answer, expiresAt });
    held.expiresAt = Math.max(held.expiresAt, expiresAt);
    while (this.bytes() > this.maxBytes) this.largest(organization)?.answers.pop();
  }

  /** Drops the organization's answers the change touches (all of them without a route, facility or date). */
  invalidate(organization: string, change: Invalidation = {}): void {
    const held = this.organizations.get(organization);
    if (held === undefined) return;
    for (const [key, entry] of held.answers.entries()) {
      if (isTouched(entry.route, entry.scope, change)) held.answers.delete(key);
    }
  }

  holding(): { organizations: number; answers: number; bytes: number } {
    let answers = 0;
    for (const held of this.organizations.values()) answers += held.answers.size;
    return { organizations: this.organizations.size, answers, bytes: this.bytes() };
  }

  sizeOf(organization: string): number {
    return this.organizations.get(organization)?.answers.size ?? 0;
  }

  private bytes(): number {
    let total = 0;
    for (const held of this.organizations.values()) total += held.answers.calculatedSize;
    return total;
  }

  /** The organization holding the most bytes; `preferred` (the one inserting) on a tie. */
  private largest(preferred: string): Organization | undefined {
    let largest = this.organizations.get(preferred);
    for (const held of this.organizations.values()) if (!largest || held.answers.calculatedSize > largest.answers.calculatedSize) largest = held;
    return largest;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    for (const [organization, held] of this.organizations) if (held.expiresAt <= now) this.organizations.delete(organization);
  }

  clear(): void {
    this.organizations.clear();
  }
}
