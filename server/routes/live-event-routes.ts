import type { Context, Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { HEARTBEAT_EVENT_NAME, LIVE_EVENT_NAME } from "#contract/app-api/live-events.ts";
import { canUseWaitlist } from "#contract/app-api/waitlist.ts";
import type { LiveEventHub } from "../events/live-event-hub.ts";
import { OpenStreams } from "../events/open-streams.ts";
import { StreamQuota, type StreamQuotaLimits } from "../events/stream-quota.ts";
import type { AppEnv } from "../http/app-env.ts";
import { AppError } from "../http/app-error.ts";

// GET /api/events: server-sent events for the caller's organization only (a
// user's `holds.changed` for that user's streams only; `waitlist.*` for
// front-desk and scheduler users' only),
// read with fetch so the token stays in the Authorization header; heartbeats;
// closed at the token's exp, on uninstall, when the caller's session or
// access is revoked on any process (server/events/stream-revocation.ts), and
// when the process shuts down (with an SSE `retry:` hint,
// server/events/open-streams.ts). A client that reconnects refetches what it
// shows; a revoked one is refused then (401, 403). Streams are capped per
// token, user and organization (server/events/stream-quota.ts): beyond, 429
// with Retry-After.

/** How long a refused stream's client waits before trying again (its own backoff grows from there). */
const STREAM_RETRY_AFTER_SECONDS = 30;
const SCOPE_TEXT: Record<keyof StreamQuotaLimits, string> = {
  perToken: "this EHR session token",
  perUser: "your user",
  perOrganization: "your organization",
};

export interface LiveEventRouteOptions {
  heartbeatMs?: number;
  now?: () => number;
  quota?: StreamQuota;
  streams?: OpenStreams;
  /**
   * Asked once the stream is registered: whether its session and
   * installation are still good. A revocation that ran between the request's
   * checks and the registration reached no stream; this closes the gap.
   */
  stillAllowed?: (c: Context<AppEnv>) => Promise<boolean>;
}

export function registerLiveEventRoutes(api: Hono<AppEnv>, hub: LiveEventHub, options: LiveEventRouteOptions = {}): void {
  const quota = options.quota ?? new StreamQuota();
  const streams = options.streams ?? new OpenStreams();
  api.get("/events", (c) => {
    const session = c.get("session");
    const admission = quota.tryOpen(session);
    if (!admission.admitted) {
      throw new AppError(
        429,
        "rate_limited",
        `Too many live-update streams are open for ${SCOPE_TEXT[admission.scope]}: close another tab, or try again in ${STREAM_RETRY_AFTER_SECONDS} s`,
        { retry_after_seconds: STREAM_RETRY_AFTER_SECONDS },
        { "Retry-After": String(STREAM_RETRY_AFTER_SECONDS) },
      );
    }
    const response = streamSSE(c, async (stream) => {
      let finish: () => void = () => undefined;
      const finished = new Promise<void>((resolve) => {
        finish = resolve;
      });
      // The account's: revoking its sign-ins ("sign out everywhere") ends its streams, not those of its person's other accounts.
      const owner = { organizationId: session.organizationId, userId: session.accountId, sessionId: session.kind === "standalone" ? (session.sessionId ?? null) : null };
      const removeFromOpen = streams.add(owner, async (retryMs) => {
        if (retryMs !== null) await stream.write(`retry: ${retryMs}\n\n`).catch(() => undefined);
        finish();
      });
      // Queued at once (writeSSE queues its frame a few ticks later), so a frame sent before the stream
      // ends, such as the uninstall's `installation.changed` just before a revocation, is delivered first.
      // The data is JSON text or empty: one line.
      const send = (event: string, data: string) => stream.write(`event: ${event}\ndata: ${data}\n\n`).catch(() => finish());
      const unsubscribe = hub.subscribe(session.organizationId, (event) => {
        // A user's holds are theirs alone: only their own streams hear of them.
        if (event.type === "holds.changed" && event.userId !== session.userId) return;
        // The waitlist names patients: only front-desk and scheduler users hear of it (issue 38).
        if ((event.type === "waitlist.offer" || event.type === "waitlist.changed") && !canUseWaitlist(session.roles)) return;
        const written = send(LIVE_EVENT_NAME, JSON.stringify(event));
        // Uninstalled: say so, then close.
        if (event.type === "installation.changed" && event.status !== "active") void written.then(finish);
      });
      const heartbeat = setInterval(() => void send(HEARTBEAT_EVENT_NAME, ""), options.heartbeatMs ?? 15_000);
      const untilExpiry = Math.max(0, session.expiresAt * 1000 - (options.now ?? Date.now)());
      const expiry = setTimeout(finish, untilExpiry);
      stream.onAbort(finish);
      void send(HEARTBEAT_EVENT_NAME, "");
      if (options.stillAllowed) {
        // A store that cannot say ends the stream too: the client reconnects and is told what is wrong.
        options.stillAllowed(c).then(
          (allowed) => {
            if (!allowed) finish();
          },
          () => finish(),
        );
      }
      try {
        await finished;
      } finally {
        clearInterval(heartbeat);
        clearTimeout(expiry);
        unsubscribe();
        removeFromOpen();
        admission.release();
      }
    });
    // Hono's SSE helper asks for keep-alive. A stream's connection is not
    // reused once the stream ends (revoked, expired, shut down): else a
    // browser or a proxy holds it idle, and a drain waits its whole grace
    // period for the connection to close (graceful-shutdown.ts).
    response.headers.set("Connection", "close");
    return response;
  });
}
