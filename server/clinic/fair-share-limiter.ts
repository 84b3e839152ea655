import { fairShare, roomFor, type WindowUse } from "./budget/fair-share-rule.ts";
import { withinMs, type Send, type SharedSendLog } from "./budget/send-log.ts";
import type { ServiceLimitReport } from "./service-limit-report.ts";
import { ServiceLimitView } from "./service-limit-view.ts";
import { rateLimitedError, UpstreamError } from "./upstream-error.ts";

// The one upstream limiter (ADR 0017, ADR 0026): a budget of `limit` sends
// in any `windowMs` (sliding: no interval of that length, wherever it starts,
// ever holds more, so no fixed window the service counts in can either),
// shared fairly by the organizations that use it (budget/fair-share-rule.ts).
// `RATE_LIMIT_SCOPE=key` is one limiter for the key; `organization` is one
// limiter per organization, each with that organization as its only member.
//
// Alone (no `shared`), the sends are counted here. With `shared`, every
// process of the deployment counts in one log (PostgreSQL or Redis,
// budget/send-log.ts): a request is let through only in a round that reads
// the log's window, applies the rule to every process's sends and records
// the sends it lets through, in one atomic step; requests arriving during a
// round go in the next, so a busy process makes one round at a time. A round
// that fails or takes longer than `timeoutMs` (1 s) never holds a request: the
// process falls back to a local share (the budget divided by the processes
// that sent in the last window it saw, at least two), says so once, tries
// the log again after `retryAfterMs`, and then records what it sent
// meanwhile.
//
// A request that cannot go now waits in its organization's FIFO queue when
// its turn is likely within `maxQueueMs`, and fails fast otherwise; one still
// waiting at `maxQueueMs` fails then. Room that frees up goes first to the
// waiting organization that has sent least.
//
// What the service says (`learn`) holds for the whole scope: the use by
// others it reports (another app on the key, a process the log does not
// know) shrinks the budget the rule shares out, reserve and shares in
// proportion, until its window ends; after a 429 nobody here sends until its
// Retry-After has passed, and a waiter whose deadline comes first fails at
// once.

const closedError = () => new UpstreamError({ status: 503, code: "upstream_unavailable", message: "The clinic client is closed" });

const tooManyError = (waitMs: number) => rateLimitedError(waitMs / 1000, `Too many requests to the Clinic Data Service; try again in ${Math.max(1, Math.ceil(waitMs / 1000))} s`);

export interface SharedBudget {
  log: SharedSendLog;
  /** The budget's name in the log: the key's, or one organization's. */
  scope: string;
  /** This process's name in the log. */
  process: string;
  /** How long a round with the log may take before this process falls back to its local share; default 1 s. Sends are counted from the end of this bound (see `runRound`): in a 60 s window, it costs under 2 % of the budget. */
  timeoutMs?: number;
  /** How long a fallback lasts before the log is tried again; default 1 s. */
  retryAfterMs?: number;
  /** Told when this process falls back to its local share (once per outage) and when it is back. */
  onFallback?: (error: unknown, localLimit: number) => void;
  onRecovered?: () => void;
}

export interface FairShareLimiterOptions {
  /** Sends allowed in any window, all organizations (and processes) together. */
  limit: number;
  windowMs: number;
  maxQueueMs: number;
  /** Kept for organizations that have sent nothing in the window; default a tenth of `limit`, rounded down. */
  reserve?: number;
  now: () => number;
  /** The log every process counts in; none: this process alone. */
  shared?: SharedBudget;
}

/** Each organization's use of the window now: `sent` of the `allowance` it may send without waiting on anyone. */
export interface LimiterBudget {
  /** Sends allowed in any window (the service's limit, for every process together when shared). */
  limit: number;
  organizations: { organization: string; sent: number; allowance: number }[];
}

export interface FairShareStats {
  queued: number;
  rejected: number;
}

interface Waiter {
  /** The turn estimated when it was queued: the basis of the estimates behind it. */
  plannedAt: number;
  /** It fails if still waiting then. */
  deadline: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

interface Plan {
  /** Per organization, how many of its first waiters go now. */
  admitted: Map<string, number>;
  sends: Send[];
}

const DEFAULT_TIMEOUT_MS = 1_000;
const DEFAULT_RETRY_AFTER_MS = 1_000;

export class FairShareLimiter {
  /** Sends still inside the window, oldest first: every process's as of the last round when shared. */
  private window: Send[] = [];
  private readonly sentCounts = new Map<string, number>();
  /** Sends made during a fallback, recorded in the log at the next round. */
  private unrecorded: Send[] = [];
  private readonly queues = new Map<string, Waiter[]>();
  private readonly counters: FairShareStats = { queued: 0, rejected: 0 };
  private readonly reserve: number;
  private readonly service = new ServiceLimitView();
  private readonly process: string;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private waiting = 0;
  private closed = false;
  private round: Promise<void> | null = null;
  private roundAgain = false;
  /** While falling back: the local share, and when to try the log again. */
  private fallback: { limit: number; retryAt: number } | null = null;

  constructor(private readonly options: FairShareLimiterOptions) {
    if (options.limit < 1) throw new RangeError("limiter limit must be at least 1");
    const reserve = options.reserve ?? Math.floor(options.limit / 10);
    if (!(reserve >= 0 && reserve < options.limit)) throw new RangeError("limiter reserve must be at least 0 and below the limit");
    this.reserve = reserve;
    this.process = options.shared?.process ?? "local";
  }

  /** Resolves when `organization` may send now (its send is counted); rejects with `rate_limited` when its turn is too far. */
  acquire(organization: string): Promise<void> {
    if (this.closed) return Promise.reject(closedError());
    const now = this.options.now();
    this.prune(now);
    if (this.usesLog(now)) return this.enqueue(organization, now);
    // Room may have freed since the timer last ran: those already waiting go first.
    if (this.waiting > 0) this.admitHere(now);
    if (!this.queues.has(organization) && !this.service.isPaused(now) && roomFor(this.use(), organization) > 0) {
      this.record([{ organization, at: now, process: this.process }]);
      return Promise.resolve();
    }
    return this.enqueue(organization, now);
  }

  /** Takes in what an answer said of the service's limit (service-limit-report.ts); it speaks for the whole scope, whichever organization asked. */
  learn(_organization: string, report: ServiceLimitReport): void {
    if (this.closed) return;
    const now = this.options.now();
    this.prune(now);
    this.service.hear(report, now, this.limitNow() - this.totalSent());
    if (this.waiting > 0) this.advance(now);
  }

  /** When the scope may send again after a 429 (in the past when it may now). */
  resumesAt(_organization: string): number {
    return this.service.pausedUntil();
  }

  stats(): FairShareStats {
    return { ...this.counters };
  }

  /** Each active organization's sends in the window (every process's when shared, as of the last round) against its fair share. */
  budget(): LimiterBudget {
    this.prune(this.options.now());
    const use = this.use();
    const names = new Set([...this.sentCounts.keys(), ...this.queues.keys()]);
    const organizations = [...names].map((organization) => ({ organization, sent: this.sentCounts.get(organization) ?? 0, allowance: fairShare(use, organization) }));
    return { limit: this.options.limit, organizations };
  }

  /** Nothing sent in the window, nobody waiting, nothing the service said still holds: the limiter can be dropped. */
  isIdle(): boolean {
    const now = this.options.now();
    this.prune(now);
    return this.window.length === 0 && this.waiting === 0 && this.round === null && this.service.isIdle(now);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const queue of this.queues.values()) for (const waiter of queue) waiter.reject(closedError());
    this.queues.clear();
    this.waiting = 0;
  }

  /** Shared, and not falling back (or due to try the log again). */
  private usesLog(now: number): boolean {
    return this.options.shared !== undefined && (this.fallback === null || now >= this.fallback.retryAt);
  }

  private enqueue(organization: string, now: number): Promise<void> {
    const plannedAt = this.estimateTurn(organization, now);
    if (plannedAt - now > this.options.maxQueueMs) {
      this.counters.rejected += 1;
      return Promise.reject(tooManyError(plannedAt - now));
    }
    if (plannedAt > now) this.counters.queued += 1;
    return new Promise<void>((resolve, reject) => {
      const queue = this.queues.get(organization) ?? [];
      queue.push({ plannedAt, deadline: now + this.options.maxQueueMs, resolve, reject });
      this.queues.set(organization, queue);
      this.waiting += 1;
      this.advance(now);
    });
  }

  /** Lets waiters go: through a round with the log, or here. */
  private advance(now: number): void {
    if (this.usesLog(now)) {
      this.startRound();
      return;
    }
    this.admitHere(now);
  }

  private admitHere(now: number): void {
    this.apply(this.plan(this.sentCounts, now));
    this.expire(now);
    this.schedule(now);
  }

  /** The budget now: the limit (a fallback's local share) less what others spent of it, as the service told (after `prune`). */
  private limitNow(): number {
    return Math.max(0, (this.fallback?.limit ?? this.options.limit) - this.service.othersCount());
  }

  private use(sent: ReadonlyMap<string, number> = this.sentCounts): WindowUse {
    const limit = this.limitNow();
    return { sent, waiting: new Set(this.queues.keys()), limit, reserve: Math.floor((this.reserve * limit) / this.options.limit) };
  }

  private totalSent(): number {
    return this.window.length;
  }

  /** A send at `t` counts until `t + windowMs` (exclusive). */
  private prune(now: number): void {
    this.service.prune(now);
    const cutoff = now - this.options.windowMs;
    let gone = 0;
    while (gone < this.window.length && (this.window[gone]?.at ?? Infinity) <= cutoff) {
      const organization = this.window[gone]?.organization ?? "";
      const left = (this.sentCounts.get(organization) ?? 1) - 1;
      if (left > 0) this.sentCounts.set(organization, left);
      else this.sentCounts.delete(organization);
      gone += 1;
    }
    if (gone > 0) this.window = this.window.slice(gone);
    if (this.unrecorded.length > 0) this.unrecorded = this.unrecorded.filter((send) => send.at > cutoff);
  }

  /** The window becomes `sends` (oldest first). */
  private replaceWindow(sends: Send[]): void {
    this.window = sends;
    this.sentCounts.clear();
    for (const send of sends) this.sentCounts.set(send.organization, (this.sentCounts.get(send.organization) ?? 0) + 1);
  }

  private record(sends: readonly Send[]): void {
    for (const send of sends) {
      this.window.push(send);
      this.sentCounts.set(send.organization, (this.sentCounts.get(send.organization) ?? 0) + 1);
      if (this.fallback) this.unrecorded.push(send);
    }
  }

  /** Which waiters go now over `sent`, least-sending organization first, while the rule allows, their sends counted from `at`; changes nothing. */
  private plan(sent: ReadonlyMap<string, number>, now: number, at = now): Plan {
    const counts = new Map(sent);
    const use = this.use(counts);
    const admitted = new Map<string, number>();
    const sends: Send[] = [];
    if (this.service.isPaused(now)) return { admitted, sends };
    const left = new Map<string, number>();
    for (const [organization, queue] of this.queues) left.set(organization, queue.length);
    for (;;) {
      let next: string | undefined;
      for (const organization of left.keys()) {
        if (next !== undefined && (counts.get(organization) ?? 0) >= (counts.get(next) ?? 0)) continue;
        if (roomFor(use, organization) > 0) next = organization;
      }
      if (next === undefined) break;
      counts.set(next, (counts.get(next) ?? 0) + 1);
      admitted.set(next, (admitted.get(next) ?? 0) + 1);
      sends.push({ organization: next, at, process: this.process });
      const remaining = (left.get(next) ?? 1) - 1;
      if (remaining > 0) left.set(next, remaining);
      else left.delete(next);
    }
    return { admitted, sends };
  }

  /** Lets the planned waiters go (a send planned for one that failed meanwhile is spent all the same). */
  private apply(plan: Plan, recordSends = true): void {
    if (recordSends) this.record(plan.sends);
    for (const [organization, count] of plan.admitted) {
      const queue = this.queues.get(organization) ?? [];
      for (let index = 0; index < count && queue.length > 0; index += 1) {
        const waiter = queue.shift();
        this.waiting -= 1;
        waiter?.resolve();
      }
      if (queue.length === 0) this.queues.delete(organization);
    }
  }

  private startRound(): void {
    if (this.round) {
      this.roundAgain = true;
      return;
    }
    this.round = this.runRound().finally(() => {
      this.round = null;
      if (this.roundAgain && this.waiting > 0 && !this.closed) {
        this.roundAgain = false;
        this.advance(this.options.now());
      }
    });
  }

  /**
   * One atomic step with the log: read every process's window, let through
   * what the rule allows, record it. The sends are recorded as made when the
   * round may end at the latest (`timeoutMs` from its start), never before
   * they really go: a send counted from earlier than it went would leave the
   * window early, and the next window could then hold more than the limit.
   * A round that ends later lets nobody through (its sends are spent) and
   * counts as a failed one: the process falls back.
   */
  private async runRound(): Promise<void> {
    const shared = this.options.shared;
    if (!shared) return;
    this.roundAgain = false;
    const now = this.options.now();
    const timeoutMs = shared.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const sentAt = now + timeoutMs;
    let outcome: { window: Send[]; plan: Plan } | null = null;
    try {
      await withinMs(
        shared.log.exchange(shared.scope, now, this.options.windowMs, (logged) => {
          const mine = this.unrecorded.filter((send) => send.at > now - this.options.windowMs);
          const all = [...logged, ...mine].sort((a, b) => a.at - b.at);
          const counts = new Map<string, number>();
          for (const send of all) counts.set(send.organization, (counts.get(send.organization) ?? 0) + 1);
          const plan = this.planShared(counts, now, sentAt);
          outcome = { window: [...all, ...plan.sends], plan };
          return [...mine, ...plan.sends];
        }),
        timeoutMs,
        `the shared upstream budget (${shared.log.engine})`,
      );
    } catch (error) {
      if (this.closed) return;
      this.fallBack(error, now);
      this.admitHere(this.options.now());
      return;
    }
    if (this.closed || outcome === null) return;
    const { window, plan } = outcome;
    const at = this.options.now();
    if (this.fallback && at <= sentAt) {
      this.fallback = null;
      shared.onRecovered?.();
    }
    this.unrecorded = [];
    this.replaceWindow(window);
    if (at > sentAt) {
      // Late (a stalled event loop, a store answering slowly): its sends are spent, and the store too slow to share the budget by now.
      this.fallBack(new Error(`the shared upstream budget (${shared.log.engine}) answered after ${at - now} ms, past its bound of ${timeoutMs} ms`), at);
      this.admitHere(at);
      return;
    }
    this.apply(plan, false);
    this.prune(at);
    this.expire(at);
    this.schedule(at);
  }

  /** `plan` over the full budget, whatever a fallback said. */
  private planShared(counts: ReadonlyMap<string, number>, now: number, at: number): Plan {
    const fallback = this.fallback;
    this.fallback = null;
    try {
      return this.plan(counts, now, at);
    } finally {
      this.fallback = fallback;
    }
  }

  /** The log failed: this process keeps to its local share of the budget until `retryAfterMs` has passed. */
  private fallBack(error: unknown, now: number): void {
    const shared = this.options.shared;
    if (!shared) return;
    const first = this.fallback === null;
    const processes = new Set(this.window.map((send) => send.process)).add(this.process).size;
    const limit = Math.max(1, Math.floor(this.options.limit / Math.max(2, processes)));
    this.fallback = { limit: first ? limit : (this.fallback?.limit ?? limit), retryAt: now + (shared.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS) };
    // Others' sends are theirs to count against their own local shares now.
    this.replaceWindow(this.window.filter((send) => send.process === this.process));
    if (first) shared.onFallback?.(error, this.fallback.limit);
  }

  /** Fails the waiters past their deadline, or whose deadline comes before a pause ends. */
  private expire(now: number): void {
    for (const [organization, queue] of this.queues) {
      while (queue[0] && (queue[0].deadline <= now || queue[0].deadline < this.service.pausedUntil())) {
        const waiter = queue.shift();
        this.waiting -= 1;
        this.counters.rejected += 1;
        waiter?.reject(tooManyError(this.estimateTurn(organization, now) - now));
      }
      if (queue.length === 0) this.queues.delete(organization);
    }
  }

  /**
   * When `organization`'s next request (behind its own queue) is likely to
   * go if nobody else asks: once a pause has ended and as many sends have
   * left the window as it lacks room, each counted as one, taking the sends
   * in the window (others' too) oldest first, then its own waiters' planned
   * turns. For failing fast and for Retry-After; the deadline bounds the
   * real wait.
   */
  private estimateTurn(organization: string, now: number): number {
    const queue = this.queues.get(organization) ?? [];
    const needed = queue.length + 1 - roomFor(this.use(), organization);
    if (needed <= 0) return Math.max(now, this.service.pausedUntil());
    const oldest = this.oldestSends(needed);
    const from = oldest.length >= needed ? oldest[needed - 1] : queue[needed - oldest.length - 1]?.plannedAt;
    return Math.max(now, this.service.pausedUntil(), (from ?? now) + this.options.windowMs);
  }

  /** Up to `count` send times in the window and others' use (as if sent a window before it leaves), oldest first. */
  private oldestSends(count: number): number[] {
    const times = this.service.leaveTimes(count).map((leavesAt) => leavesAt - this.options.windowMs);
    for (const send of this.window.slice(0, count)) times.push(send.at);
    return times.sort((a, b) => a - b).slice(0, count);
  }

  /** One timer for the whole limiter: at the next send leaving the window, the next deadline, the next change of what the service said, or the fallback's end. */
  private schedule(now: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.waiting === 0 || this.closed) return;
    let at = this.service.nextChange(now);
    const oldest = this.window[0];
    if (oldest) at = Math.min(at, oldest.at + this.options.windowMs);
    for (const queue of this.queues.values()) {
      const first = queue[0];
      if (first) at = Math.min(at, first.deadline);
    }
    if (this.fallback) at = Math.min(at, this.fallback.retryAt);
    this.timer = setTimeout(
      () => {
        this.timer = null;
        const at = this.options.now();
        this.prune(at);
        if (this.waiting > 0) this.advance(at);
      },
      Math.max(1, at - now),
    );
  }
}
