import { BudgetRefusal } from "./budget-refusal.ts";
import { fairShare, roomFor, type WindowUse } from "./fair-share-rule.ts";
import type { Send, SharedBudget } from "./send-log.ts";
import { SendWindow } from "./send-window.ts";
import type { ServiceLimitReport } from "./service-limit-report.ts";

// The one upstream limiter (ADR 0017, ADR 0026): at most `limit` sends in any
// sliding `windowMs` (so no fixed window of the service's holds more), shared
// fairly by organizations (fair-share-rule.ts), counted here or by
// every process (send-window.ts). A request waits in its
// organization's queue when its turn is likely within `maxQueueMs`, else
// fails at once; freed room goes first to the waiting organization that sent
// least. What the service says holds for the whole scope: others' use shrinks
// the budget until its window ends; after a 429 nobody sends until Retry-After.

const closedError = () => new BudgetRefusal("closed", "The upstream budget is closed");
const tooManyError = (waitMs: number) => {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new BudgetRefusal("rate_limited", `Too many requests to the Clinic Data Service; try again in ${seconds} s`, seconds);
};

export interface LimiterCounters {
  queued: number;
  rejected: number;
}

export interface FairShareLimiterOptions {
  /** Sends allowed in any window, all organizations and processes together. */
  limit: number;
  windowMs: number;
  maxQueueMs: number;
  /** Kept for organizations that sent nothing in the window; default a tenth of `limit`. */
  reserve?: number;
  now: () => number;
  shared?: SharedBudget;
  /** Shared by a client's limiters; default its own. */
  counters?: LimiterCounters;
}

/** Each organization's use of the window now: `sent` of the `allowance` it may send without waiting on anyone. */
export interface LimiterBudget {
  limit: number;
  organizations: { organization: string; sent: number; allowance: number }[];
}

interface Waiter {
  /** Its turn as estimated when it came: the basis of the estimates behind it. */
  plannedAt: number;
  deadline: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

function countBy(sends: readonly Send[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { organization } of sends) counts.set(organization, (counts.get(organization) ?? 0) + 1);
  return counts;
}

export class FairShareLimiter {
  private readonly window: SendWindow;
  private readonly queues = new Map<string, Waiter[]>();
  /** When each request the service says others spent leaves its window, earliest first. */
  private others: number[] = [];
  private pausedUntil = -Infinity;
  private round: Promise<void> | null = null;
  private roundAgain = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private readonly reserve: number;
  private readonly counters: LimiterCounters;

  constructor(private readonly options: FairShareLimiterOptions) {
    if (options.limit < 1) throw new RangeError("limiter limit must be at least 1");
    this.reserve = options.reserve ?? Math.floor(options.limit / 10);
    if (!(this.reserve >= 0 && this.reserve < options.limit)) throw new RangeError("limiter reserve must be at least 0 and below the limit");
    this.counters = options.counters ?? { queued: 0, rejected: 0 };
    this.window = new SendWindow(options.limit, options.windowMs, options.shared);
  }

  /** Resolves when `organization` may send (its send is counted); rejects with `rate_limited` when its turn is too far. */
  acquire(organization: string): Promise<void> {
    if (this.closed) return Promise.reject(closedError());
    const now = this.options.now();
    this.prune(now);
    const plannedAt = this.estimateTurn(organization, now);
    if (plannedAt - now > this.options.maxQueueMs) {
      this.counters.rejected += 1;
      return Promise.reject(tooManyError(plannedAt - now));
    }
    if (plannedAt > now) this.counters.queued += 1;
    return new Promise<void>((resolve, reject) => {
      const queue = this.queues.get(organization) ?? [];
      this.queues.set(organization, queue);
      queue.push({ plannedAt, deadline: now + this.options.maxQueueMs, resolve, reject });
      this.advance(now);
    });
  }

  /** What an answer said of the service's limit: believed only when it says less is left, never more. */
  learn(_organization: string, report: ServiceLimitReport): void {
    if (this.closed) return;
    const now = this.options.now();
    this.prune(now);
    if (report.retryAt !== undefined) this.pausedUntil = Math.max(this.pausedUntil, report.retryAt);
    const remaining = report.remaining;
    const believed = this.budgetNow(this.window.limitNow()) - this.window.sends.length;
    if (remaining !== undefined && remaining.count < believed && remaining.until > now) {
      this.others.push(...Array<number>(believed - remaining.count).fill(remaining.until));
      this.others.sort((a, b) => a - b);
    }
    if (this.queues.size > 0) this.advance(now);
  }

  resumesAt(): number {
    return this.pausedUntil;
  }

  stats(): LimiterCounters {
    return { ...this.counters };
  }

  budget(): LimiterBudget {
    this.prune(this.options.now());
    const sent = countBy(this.window.sends);
    const use = this.use(sent, this.window.limitNow());
    const organizations = [...new Set([...sent.keys(), ...this.queues.keys()])].map((organization) => ({ organization, sent: sent.get(organization) ?? 0, allowance: fairShare(use, organization) }));
    return { limit: this.options.limit, organizations };
  }

  /** Nothing sent, waiting or said by the service still holds: it can be dropped. */
  isIdle(): boolean {
    const now = this.options.now();
    this.prune(now);
    return this.window.sends.length === 0 && this.queues.size === 0 && this.round === null && this.others.length === 0 && now >= this.pausedUntil;
  }

  close(): void {
    this.closed = true;
    this.window.close();
    clearTimeout(this.timer);
    for (const queue of this.queues.values()) for (const waiter of queue) waiter.reject(closedError());
    this.queues.clear();
  }

  /** `limit` less what the service says others spent. */
  private budgetNow(limit: number): number {
    return Math.max(0, limit - this.others.length);
  }

  private use(sent: ReadonlyMap<string, number>, limit: number): WindowUse {
    const budget = this.budgetNow(limit);
    return { sent, waiting: new Set(this.queues.keys()), limit: budget, reserve: Math.floor((this.reserve * budget) / this.options.limit) };
  }

  private prune(now: number): void {
    this.window.prune(now);
    while ((this.others[0] ?? Infinity) <= now) this.others.shift();
  }

  private advance(now: number): void {
    if (!this.window.usesLog(now)) {
      this.letGo(this.window.here(now, this.plan), now);
      return;
    }
    if (this.round) {
      this.roundAgain = true;
      return;
    }
    this.roundAgain = false;
    this.round = this.window.round(now, this.options.now, this.plan).then((chosen) => {
      this.round = null;
      if (this.closed) return;
      this.letGo(chosen, this.options.now());
      if (this.roundAgain && this.queues.size > 0) this.advance(this.options.now());
    });
  }

  /** Which waiters go over `window` under `limit`, one organization per send, least-sending first, while the rule allows. */
  private readonly plan = (window: readonly Send[], limit: number): string[] => {
    if (this.options.now() < this.pausedUntil) return [];
    const sent = countBy(window);
    const use = this.use(sent, limit);
    const left = new Map([...this.queues].map(([organization, queue]) => [organization, queue.length] as const));
    const chosen: string[] = [];
    for (;;) {
      let next: string | undefined;
      for (const organization of left.keys()) {
        if (next !== undefined && (sent.get(organization) ?? 0) >= (sent.get(next) ?? 0)) continue;
        if (roomFor(use, organization) > 0) next = organization;
      }
      if (next === undefined) return chosen;
      sent.set(next, (sent.get(next) ?? 0) + 1);
      chosen.push(next);
      const waiting = (left.get(next) ?? 1) - 1;
      if (waiting > 0) left.set(next, waiting);
      else left.delete(next);
    }
  };

  /** Lets each chosen organization's first waiter go (a send chosen for one that failed meanwhile is spent all the same), then fails those past their deadline. */
  private letGo(chosen: readonly string[], now: number): void {
    for (const organization of chosen) {
      const queue = this.queues.get(organization);
      queue?.shift()?.resolve();
      if (queue?.length === 0) this.queues.delete(organization);
    }
    for (const [organization, queue] of this.queues) {
      while (queue[0] && (queue[0].deadline <= now || queue[0].deadline < this.pausedUntil)) {
        queue.shift()?.reject(tooManyError(this.estimateTurn(organization, now) - now));
        this.counters.rejected += 1;
      }
      if (queue.length === 0) this.queues.delete(organization);
    }
    this.schedule(now);
  }

  /** When `organization`'s next request (behind its queue) likely goes if nobody else asks: once as many sends left the window as it lacks room. For failing fast and Retry-After. */
  private estimateTurn(organization: string, now: number): number {
    const queue = this.queues.get(organization) ?? [];
    const needed = queue.length + 1 - roomFor(this.use(countBy(this.window.sends), this.window.limitNow()), organization);
    const earliest = Math.max(now, this.pausedUntil);
    if (needed <= 0) return earliest;
    const windowMs = this.options.windowMs;
    const leaving = [...this.window.sends.slice(0, needed).map((send) => send.at), ...this.others.slice(0, needed).map((leavesAt) => leavesAt - windowMs)].sort((a, b) => a - b);
    const from = leaving.length >= needed ? leaving[needed - 1] : queue[needed - leaving.length - 1]?.plannedAt;
    return Math.max(earliest, (from ?? now) + windowMs);
  }

  /** One timer: at the next send leaving the window, deadline, change of what the service said, or end of a fallback. */
  private schedule(now: number): void {
    clearTimeout(this.timer);
    if (this.queues.size === 0 || this.closed) return;
    let at = Math.min(this.others[0] ?? Infinity, (this.window.sends[0]?.at ?? Infinity) + this.options.windowMs, this.window.retryAt());
    if (this.pausedUntil > now) at = Math.min(at, this.pausedUntil);
    for (const queue of this.queues.values()) at = Math.min(at, queue[0]?.deadline ?? Infinity);
    this.timer = setTimeout(
      () => {
        const later = this.options.now();
        this.prune(later);
        if (this.queues.size > 0) this.advance(later);
      },
      Math.max(1, at - now),
    );
  }
}
