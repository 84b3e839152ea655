import type { LimiterBudget } from "./rate-limiter.ts";
import type { ServiceLimitReport } from "./service-limit-report.ts";
import { ServiceLimitView } from "./service-limit-view.ts";
import { rateLimitedError, UpstreamError } from "./upstream-error.ts";

// ADR 0017: one data key's budget, this process's share of
// the service's 1000 requests per 60 s (seed 001 "Limits"), shared fairly by
// the organizations that use it, so one organization cannot cut the others
// off. The rule, over a sliding window (no `windowMs` interval, wherever it
// starts, ever holds more than `limit` sends):
//
// - `reserve` (a tenth of `limit`) is kept for organizations that have sent
//   nothing yet. The rest is split evenly among the active organizations
//   (those with a send in the window or a request waiting): each one's fair
//   share is `(limit − reserve) / active`.
// - Below its fair share, an organization sends whenever the window has room.
// - At or above it, it borrows: it sends only if the window keeps room for
//   the reserve and, for every other active organization below its fair
//   share, a cushion of as much again as that organization sent in the window
//   (never more than the rest of its share). A busy organization thus takes
//   only what the others leave unused, never what they are using, and a quiet
//   one keeps its pace, and can double it, at once.
//
// A request that cannot go now waits in its organization's FIFO queue when
// its turn is likely within `maxQueueMs`, and fails fast otherwise; one still
// waiting at `maxQueueMs` fails then. Room that frees up goes first to the
// waiting organization that has sent least.
//
// What the service says (`learn`) holds for the whole key, as this scope
// reads its limit: the use by others it reports (another process or app on
// the key) shrinks the budget the rule shares out, reserve and shares in
// proportion, until its window ends; after a 429 nobody sends until its
// Retry-After has passed, and a waiter whose deadline comes first fails at
// once. When the pause ends, the waiters go by the same rule.

const closedError = () => new UpstreamError({ status: 503, code: "upstream_unavailable", message: "The clinic client is closed" });

const tooManyError = (waitMs: number) => rateLimitedError(waitMs / 1000, `Too many requests to the Clinic Data Service; try again in ${Math.max(1, Math.ceil(waitMs / 1000))} s`);

export interface FairShareLimiterOptions {
  /** Sends allowed in any window, all organizations together. */
  limit: number;
  windowMs: number;
  maxQueueMs: number;
  /** Kept for organizations that have sent nothing in the window; default a tenth of `limit`, rounded down. */
  reserve?: number;
  now: () => number;
}

interface Waiter {
  /** The turn estimated when it was queued: the basis of the estimates behind it. */
  plannedAt: number;
  /** It fails if still waiting then. */
  deadline: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

interface Member {
  /** Send times still inside the window, oldest first, from `head`. */
  sent: number[];
  head: number;
  waiters: Waiter[];
}

export interface FairShareStats {
  queued: number;
  rejected: number;
}

const liveOf = (member: Member) => member.sent.length - member.head;
const isActive = (member: Member) => liveOf(member) > 0 || member.waiters.length > 0;

export class FairShareLimiter {
  private readonly members = new Map<string, Member>();
  private readonly counters: FairShareStats = { queued: 0, rejected: 0 };
  private readonly reserve: number;
  private readonly service = new ServiceLimitView();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private waiting = 0;
  private closed = false;

  constructor(private readonly options: FairShareLimiterOptions) {
    if (options.limit < 1) throw new RangeError("limiter limit must be at least 1");
    const reserve = options.reserve ?? Math.floor(options.limit / 10);
    if (!(reserve >= 0 && reserve < options.limit)) throw new RangeError("limiter reserve must be at least 0 and below the limit");
    this.reserve = reserve;
  }

  /** Resolves when `organization` may send now (its send is counted); rejects with `rate_limited` when its turn is too far. */
  acquire(organization: string): Promise<void> {
    if (this.closed) return Promise.reject(closedError());
    const now = this.options.now();
    this.prune(now);
    // Room may have freed since the timer last ran: those already waiting go first.
    if (this.waiting > 0) {
      this.admitWaiters(now);
      this.schedule(now);
    }
    const member = this.memberOf(organization);
    if (member.waiters.length === 0 && this.canSend(member, now)) {
      member.sent.push(now);
      return Promise.resolve();
    }
    const plannedAt = this.estimateTurn(member, now);
    if (plannedAt - now > this.options.maxQueueMs) {
      this.counters.rejected += 1;
      if (!isActive(member)) this.members.delete(organization);
      return Promise.reject(tooManyError(plannedAt - now));
    }
    this.counters.queued += 1;
    return new Promise<void>((resolve, reject) => {
      member.waiters.push({ plannedAt, deadline: now + this.options.maxQueueMs, resolve, reject });
      this.waiting += 1;
      this.schedule(now);
    });
  }

  /** Takes in what an answer said of the service's limit (service-limit-report.ts); in this scope it speaks for the whole key, whichever organization asked. */
  learn(_organization: string, report: ServiceLimitReport): void {
    if (this.closed) return;
    const now = this.options.now();
    this.prune(now);
    this.service.hear(report, now, this.limitNow() - this.totalSent());
    if (this.waiting > 0) {
      this.admitWaiters(now);
      this.schedule(now);
    }
  }

  /** When the key may send again after a 429 (in the past when it may now). */
  resumesAt(_organization: string): number {
    return this.service.pausedUntil();
  }

  stats(): FairShareStats {
    return { ...this.counters };
  }

  /** Each active organization's sends in the window against its fair share (beyond it, it only borrows what others leave). */
  budget(): LimiterBudget {
    this.prune(this.options.now());
    const organizations = [...this.members].map(([organization, member]) => ({ organization, sent: liveOf(member), allowance: this.fairShare(member) }));
    return { limit: this.options.limit, organizations };
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const member of this.members.values()) for (const waiter of member.waiters) waiter.reject(closedError());
    this.members.clear();
    this.waiting = 0;
  }

  private memberOf(organization: string): Member {
    let member = this.members.get(organization);
    if (!member) {
      member = { sent: [], head: 0, waiters: [] };
      this.members.set(organization, member);
    }
    return member;
  }

  /** A send at `t` counts until `t + windowMs` (exclusive); an organization with nothing in the window and nothing waiting is forgotten. */
  private prune(now: number): void {
    this.service.prune(now);
    const cutoff = now - this.options.windowMs;
    for (const [organization, member] of this.members) {
      while (member.head < member.sent.length && (member.sent[member.head] ?? Infinity) <= cutoff) member.head += 1;
      if (member.head > 1024 && member.head * 2 > member.sent.length) {
        member.sent = member.sent.slice(member.head);
        member.head = 0;
      }
      if (!isActive(member)) this.members.delete(organization);
    }
  }

  /** The limit less what others spent of it, as the service told (after `prune`). */
  private limitNow(): number {
    return Math.max(0, this.options.limit - this.service.othersCount());
  }

  /** The reserve, shrunk in proportion to the limit. */
  private reserveNow(): number {
    return Math.floor((this.reserve * this.limitNow()) / this.options.limit);
  }

  private totalSent(): number {
    let total = 0;
    for (const member of this.members.values()) total += liveOf(member);
    return total;
  }

  /** The fair share of each active organization, `candidate` counted as active. */
  private fairShare(candidate: Member): number {
    let active = 0;
    for (const member of this.members.values()) if (member === candidate || isActive(member)) active += 1;
    return Math.max(1, Math.floor((this.limitNow() - this.reserveNow()) / active));
  }

  private canSend(member: Member, now: number): boolean {
    return !this.service.isPaused(now) && this.roomFor(member) > 0;
  }

  /** How many more sends `candidate` may make by the rule above, a pause aside. */
  private roomFor(candidate: Member): number {
    const free = this.limitNow() - this.totalSent();
    if (free <= 0) return 0;
    const share = this.fairShare(candidate);
    const belowShare = Math.min(Math.max(0, share - liveOf(candidate)), free);
    let cushions = 0;
    for (const member of this.members.values()) {
      if (member === candidate || !isActive(member)) continue;
      const live = liveOf(member);
      if (live < share) cushions += Math.min(live, share - live);
    }
    return belowShare + Math.max(0, free - belowShare - this.reserveNow() - cushions);
  }

  /**
   * When `member`'s next request (behind its own queue) is likely to go if
   * nobody else asks: once a pause has ended and as many sends have left the
   * window as it lacks room, each counted as one, taking the sends in the
   * window (others' too) oldest first, then its own waiters' planned turns.
   * For failing fast and for Retry-After; the deadline bounds the real wait.
   */
  private estimateTurn(member: Member, now: number): number {
    const needed = member.waiters.length + 1 - this.roomFor(member);
    if (needed <= 0) return Math.max(now, this.service.pausedUntil());
    const oldest = this.oldestSends(needed);
    const from = oldest.length >= needed ? oldest[needed - 1] : member.waiters[needed - oldest.length - 1]?.plannedAt;
    return Math.max(now, this.service.pausedUntil(), (from ?? now) + this.options.windowMs);
  }

  /** Up to `count` send times in the window, all organizations and others' use (as if sent a window before it leaves), oldest first. */
  private oldestSends(count: number): number[] {
    const times = this.service.leaveTimes(count).map((leavesAt) => leavesAt - this.options.windowMs);
    for (const member of this.members.values()) {
      const end = Math.min(member.sent.length, member.head + count);
      for (let index = member.head; index < end; index += 1) times.push(member.sent[index] ?? 0);
    }
    return times.sort((a, b) => a - b).slice(0, count);
  }

  /** Lets waiters go while the rule allows, least-sending organization first; fails those past their deadline, or whose deadline comes before a pause ends. */
  private admitWaiters(now: number): void {
    while (!this.service.isPaused(now)) {
      let next: Member | undefined;
      for (const member of this.members.values()) {
        if (member.waiters.length === 0 || (next !== undefined && liveOf(member) >= liveOf(next))) continue;
        if (this.roomFor(member) > 0) next = member;
      }
      const waiter = next?.waiters.shift();
      if (!next || !waiter) break;
      this.waiting -= 1;
      next.sent.push(now);
      waiter.resolve();
    }
    for (const [organization, member] of this.members) {
      while (member.waiters[0] && (member.waiters[0].deadline <= now || member.waiters[0].deadline < this.service.pausedUntil())) {
        const waiter = member.waiters.shift();
        this.waiting -= 1;
        this.counters.rejected += 1;
        waiter?.reject(tooManyError(this.estimateTurn(member, now) - now));
      }
      if (!isActive(member)) this.members.delete(organization);
    }
  }

  /** One timer for the whole limiter: at the next send leaving the window, the next deadline, or the next change of what the service said. */
  private schedule(now: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.waiting === 0) return;
    let at = this.service.nextChange(now);
    for (const member of this.members.values()) {
      const oldest = member.sent[member.head];
      if (oldest !== undefined) at = Math.min(at, oldest + this.options.windowMs);
      const first = member.waiters[0];
      if (first) at = Math.min(at, first.deadline);
    }
    this.timer = setTimeout(
      () => {
        this.timer = null;
        const at = this.options.now();
        this.prune(at);
        this.admitWaiters(at);
        this.schedule(at);
      },
      Math.max(1, at - now),
    );
  }
}
