// Webhook delivery of the emulator (DESIGN.md "The emulator"): Standard
// Webhooks signatures, retries on a backoff, duplicates and reordering on
// purpose. One serial worker per target keeps a batch in order unless
// `shuffle` asks otherwise; failed messages re-enter the queue from their
// retry timer, so a retried message lands after later ones, as the seed's
// "Ordering is not guaranteed" allows.
import { randomBytes } from "node:crypto";
import type { Clock } from "../clock.ts";
import { signWebhook, webhookHeaders, type WebhookHeaderStyle } from "./sign-webhook.ts";

export interface WebhookEvent {
  type: string;
  data: Record<string, unknown>;
  /** ISO 8601 UTC with ms: when the change was recorded, not when it is sent. */
  timestamp: string;
  /** The scope an installation must grant to receive it, when its type's family does not say (`sync_request.completed`); never sent. */
  scope?: string;
}

export interface WebhookTarget {
  url: string;
  /** standard: `webhook-id`/`-timestamp`/`-signature`; prefixed: `svix-id`/`svix-timestamp`/`svix-signature`. */
  headerStyle: WebhookHeaderStyle;
  /** Deliver every message twice, same id. */
  duplicate?: boolean;
  /** Deliver a batch in random order. */
  shuffle?: boolean;
  /** Seconds (fractions allowed) to wait after each failed attempt; its length is the number of retries. */
  retrySchedule?: number[];
}

export type DeliveryOutcome = "delivered" | "retrying" | "failed";

export interface DeliveryAttempt {
  messageId: string;
  eventType: string;
  /** 1 for the first attempt of a delivery, counting up through its retries. */
  attempt: number;
  /** HTTP status, or null when no answer came (network error, timeout, signing failure). */
  status: number | null;
  error?: string;
  /** Emulator clock at the attempt, ISO 8601 UTC. */
  at: string;
  /** 1, or 2 for the deliberate second copy when `duplicate` is on. */
  delivery: number;
  url: string;
  /** The Unix seconds sent in the timestamp header and signed. */
  signedAt: number;
  /** delivered: 2xx; retrying: another attempt is scheduled; failed: schedule exhausted. */
  outcome: DeliveryOutcome;
  /** Seconds until the next attempt when `outcome` is "retrying". */
  nextRetryInSeconds?: number;
}

export interface WebhookDispatcherOptions {
  /** Signing timestamps and `at` come from the emulator's clock. */
  clock: Clock;
  /** `whsec_…` secrets; several during a rotation, each signs. Read at every attempt. */
  signingSecrets: () => string[];
  fetch?: typeof fetch;
  /** Used for `shuffle`; inject a seeded one for deterministic tests. */
  random?: () => number;
  newMessageId?: () => string;
  /** Per-request timeout; a receiver that does not answer in time counts as a failed attempt. */
  timeoutMs?: number;
  /** The attempt log keeps the most recent entries only. */
  maxLogEntries?: number;
}

export interface WebhookDispatcher {
  /** Replaces the current target; messages still queued or waiting on a retry for the old one are dropped. */
  configure(target: WebhookTarget | null): void;
  target(): WebhookTarget | null;
  /** Enqueues a batch (one sync's events) and returns their message ids at once; delivery is asynchronous. */
  send(events: readonly WebhookEvent[]): string[];
  attempts(): DeliveryAttempt[];
  /** Resolves when nothing is in flight, queued or waiting on a retry timer. */
  idle(): Promise<void>;
  /** Forgets target, queue, log and pending timers. */
  reset(): void;
  /** Clears timers and drops pending work; final: later sends (even after reset) deliver nothing. */
  close(): void;
}

/**
 * The delivery provider's backoff after the immediate first attempt: 5 s,
 * 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, about 27 hours in all, matching the
 * seed's "retries on an increasing backoff for roughly 24 hours".
 */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [5, 300, 1800, 7200, 18000, 36000, 36000];

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_LOG_ENTRIES = 10_000;
// setTimeout overflows (and fires at once) beyond this.
const MAX_TIMER_MS = 2 ** 31 - 1;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `msg_` and 27 base62 characters, the shape of the provider's message ids. */
export function randomMessageId(): string {
  let id = "msg_";
  for (const byte of randomBytes(27)) id += BASE62[byte % 62] ?? "0";
  return id;
}

/** In-place Fisher–Yates shuffle. */
export function shuffleInPlace<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.min(i, Math.floor(random() * (i + 1)));
    const a = items[i] as T;
    items[i] = items[j] as T;
    items[j] = a;
  }
  return items;
}

interface Delivery {
  messageId: string;
  eventType: string;
  payload: string;
  copy: number;
  attempts: number;
}

/** Everything bound to one target; replaced wholesale by configure, reset and close. */
interface Session {
  target: WebhookTarget | null;
  queue: Delivery[];
  timers: Set<NodeJS.Timeout>;
  running: boolean;
  live: boolean;
}

function newSession(target: WebhookTarget | null): Session {
  return { target, queue: [], timers: new Set(), running: false, live: true };
}

function copyTarget(target: WebhookTarget): WebhookTarget {
  const copy: WebhookTarget = { ...target };
  if (target.retrySchedule) copy.retrySchedule = [...target.retrySchedule];
  return copy;
}

function errorMessage(err: unknown): string {
  if (err instanceof Error) {
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : "";
    return `${err.name}: ${err.message}${cause}`;
  }
  return String(err);
}

export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const { clock, signingSecrets } = options;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const random = options.random ?? Math.random;
  const newMessageId = options.newMessageId ?? randomMessageId;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxLogEntries = Math.max(1, options.maxLogEntries ?? DEFAULT_MAX_LOG_ENTRIES);

  let session = newSession(null);
  let closed = false;
  let log: DeliveryAttempt[] = [];
  let waiters: Array<() => void> = [];

  function isIdle(s: Session): boolean {
    return !s.running && s.queue.length === 0 && s.timers.size === 0;
  }

  function settle(): void {
    if (!isIdle(session) || waiters.length === 0) return;
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  }

  function record(entry: DeliveryAttempt): void {
    log.push(entry);
    if (log.length > maxLogEntries) log.splice(0, log.length - maxLogEntries);
  }

  function retryDelaySeconds(target: WebhookTarget, failedAttempts: number): number | undefined {
    const raw = (target.retrySchedule ?? DEFAULT_RETRY_SCHEDULE)[failedAttempts - 1];
    if (raw === undefined) return undefined;
    return Number.isFinite(raw) && raw > 0 ? raw : 0;
  }

  function replaceSession(next: Session): void {
    session.live = false;
    for (const timer of session.timers) clearTimeout(timer);
    session.timers.clear();
    session.queue.length = 0;
    session = next;
    settle();
  }

  async function attemptOnce(s: Session, target: WebhookTarget, delivery: Delivery): Promise<void> {
    delivery.attempts += 1;
    const nowMs = clock.now();
    // DESIGN.md: the emulator's clock stamps webhook timestamps; each retry is
    // re-stamped and re-signed under the same id, as the provider does.
    const signedAt = Math.floor(nowMs / 1000);
    let status: number | null = null;
    let error: string | undefined;
    try {
      const signature = signWebhook(signingSecrets(), delivery.messageId, signedAt, delivery.payload);
      const response = await fetchImpl(target.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...webhookHeaders(target.headerStyle, delivery.messageId, signedAt, signature),
        },
        body: delivery.payload,
        // The provider does not follow redirects: a 3xx is a failed attempt.
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.status;
      try {
        await response.body?.cancel();
      } catch {
        // The answer's body is never read; a failure to discard it changes nothing.
      }
    } catch (err) {
      error = errorMessage(err);
    }
    if (!s.live) return;

    const delivered = status !== null && status >= 200 && status < 300;
    const delay = delivered ? undefined : retryDelaySeconds(target, delivery.attempts);
    const entry: DeliveryAttempt = {
      messageId: delivery.messageId,
      eventType: delivery.eventType,
      attempt: delivery.attempts,
      status,
      at: new Date(nowMs).toISOString(),
      delivery: delivery.copy,
      url: target.url,
      signedAt,
      outcome: delivered ? "delivered" : delay === undefined ? "failed" : "retrying",
    };
    if (error !== undefined) entry.error = error;
    if (delay !== undefined) entry.nextRetryInSeconds = delay;
    record(entry);

    if (delay === undefined) return;
    const timer = setTimeout(() => {
      s.timers.delete(timer);
      if (!s.live) return;
      s.queue.push(delivery);
      void pump(s);
    }, Math.min(delay * 1000, MAX_TIMER_MS));
    // Retry timers never keep the emulator (or a test run) alive.
    timer.unref();
    s.timers.add(timer);
  }

  async function pump(s: Session): Promise<void> {
    if (s.running) return;
    s.running = true;
    try {
      while (s.live && s.target !== null) {
        const next = s.queue.shift();
        if (next === undefined) break;
        await attemptOnce(s, s.target, next);
      }
    } finally {
      s.running = false;
      settle();
    }
  }

  return {
    configure(target) {
      replaceSession(newSession(target ? copyTarget(target) : null));
    },

    target() {
      return session.target ? copyTarget(session.target) : null;
    },

    send(events) {
      const ids: string[] = [];
      try {
        const s = session;
        const target = s.target;
        const batch: Delivery[] = [];
        for (const event of events) {
          const messageId = newMessageId();
          ids.push(messageId);
          if (target === null || closed) continue;
          let payload: string;
          try {
            payload = JSON.stringify({ type: event.type, data: event.data, timestamp: event.timestamp });
          } catch (err) {
            record({
              messageId,
              eventType: event.type,
              attempt: 1,
              status: null,
              error: `payload is not serialisable: ${errorMessage(err)}`,
              at: new Date(clock.now()).toISOString(),
              delivery: 1,
              url: target.url,
              signedAt: Math.floor(clock.now() / 1000),
              outcome: "failed",
            });
            continue;
          }
          // DESIGN.md: duplicates on purpose, to exercise the seed's rule that
          // receivers deduplicate on the id, which is the same for both.
          const copies = target.duplicate ? 2 : 1;
          for (let copy = 1; copy <= copies; copy++) {
            batch.push({ messageId, eventType: event.type, payload, copy, attempts: 0 });
          }
        }
        if (target === null || closed || batch.length === 0) return ids;
        // DESIGN.md: reordering on purpose; the seed says to order on the
        // payload timestamp, never on arrival.
        if (target.shuffle) shuffleInPlace(batch, random);
        s.queue.push(...batch);
        void pump(s);
      } catch (err) {
        // send never throws into the sync that emitted the events.
        console.error("webhook dispatcher: send failed", err);
      }
      return ids;
    },

    attempts() {
      return log.map((entry) => ({ ...entry }));
    },

    idle() {
      if (isIdle(session)) return Promise.resolve();
      return new Promise<void>((resolve) => {
        waiters.push(resolve);
      });
    },

    reset() {
      log = [];
      replaceSession(newSession(null));
    },

    close() {
      closed = true;
      replaceSession(newSession(session.target));
    },
  };
}
