import type { QueryClient, QueryKey } from "@tanstack/react-query";
import type { LiveEvent } from "#contract/app-api/live-events.ts";
import { formatTraceparent, newTraceContext } from "#contract/app-api/trace-context.ts";
import type { AppLink } from "../bridge/app-link.ts";
import { onBffAnswered, reportBffAnswered, tandemRetryDelayMs } from "./bff-reachability.ts";
import { parseFrames } from "./live-event-frames.ts";
import { currentCacheIdentity, onCacheIdentityChange } from "./cache-identity.ts";
import { invalidateEveryRead, queryKeys, queryKeysOf } from "./query-keys.ts";
import { receiveLiveOffer } from "./waitlist-offers-store.ts";

// GET /api/events read with fetch, so the token stays in the Authorization
// header (EventSource cannot send one). Each event invalidates the affected
// queries; a reconnect (the stream closes at the token's expiry) reads
// everything again (`invalidateEveryRead`), since events may have been
// missed in between. A stream the
// server ends with a `retry:` hint (its process shutting down) is reopened
// after that delay, through the proxy, on another process. A stream ended
// because its sign-in was revoked (signed out, elsewhere too, or access
// changed) is refused as it reconnects: a 401 ends the sign-in, as for any
// other call (bff-client.ts), after one fresh token inside the EHR; it is
// never retried in a loop. A 403 (Tandem's installation not active) has the
// session read again, and the stream is tried again on the backoff below. A
// stream that could not be opened is tried again on Tandem's one backoff
// (bff-reachability.ts: 1 s doubling to every 10 s),
// and at once when any other call finds the server answering again, so that
// views left with an error (Tandem's server restarted) read again by
// themselves within seconds of its return.
//
// A stream belongs to the identity (organization and user) it was opened as
// (ADR 0025): its events invalidate that identity's keys only (an event still
// read from it after a switch touches entries already removed, never the new
// identity's), and once the identity changes it is closed and opened again as
// the new one.
//
// The waitlist's events reach front-desk and scheduler users only (issue 38):
// a `waitlist.offer` carries the whole offer, kept at once for the alert
// (waitlist-offers-store.ts) before anything is read again, so the alert does
// not wait on a read; both it and `waitlist.changed` have the waitlist read
// again (entries, their best matches, and who took which offer).

function invalidationsFor(event: LiveEvent, keys: ReturnType<typeof queryKeysOf>): readonly QueryKey[] {
  switch (event.type) {
    case "schedule.changed":
      return [keys.slots.all, keys.availability.all, keys.patientAppointments.all];
    case "note.changed":
      return [keys.note.one(event.noteId), keys.note.images(event.noteId), keys.note.tasks(event.noteId)];
    case "installation.changed":
      return [keys.session()];
    case "directory.changed":
      return [keys.directory.resource(event.resource)];
    case "holds.changed":
      return [keys.holds()];
    case "waitlist.offer":
    case "waitlist.changed":
      return [keys.waitlist.all];
  }
}

/** Waits `ms`, or less when `signal` aborts (the identity changed: reconnect as the new one at once). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** As {@link pause}, ended early too by any call the BFF answers (it is back). */
async function pauseUntilAnswered(ms: number, signal: AbortSignal): Promise<void> {
  const woken = new AbortController();
  const stopListening = onBffAnswered(() => woken.abort());
  const onAbort = () => woken.abort();
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    await pause(ms, woken.signal);
  } finally {
    stopListening();
    signal.removeEventListener("abort", onAbort);
  }
}

/** Keeps a live-event stream open until `stop` is called. */
export function startLiveEvents(queryClient: QueryClient, bridge: AppLink): () => void {
  const controller = new AbortController();
  /** Attempts in a row that opened no stream: the backoff's step. */
  let failures = 0;
  /** Closes the current connection when the identity changes, so the loop opens the next as the new one. */
  let connection = new AbortController();
  let identityChanged = false;
  const stopWatchingIdentity = onCacheIdentityChange(() => {
    identityChanged = true;
    connection.abort();
  });
  controller.signal.addEventListener("abort", () => {
    stopWatchingIdentity();
    connection.abort();
  });

  const run = async () => {
    let firstConnection = true;
    let refreshedAfter401 = false;
    while (!controller.signal.aborted) {
      let hintedMs: number | null = null;
      /** This attempt got no answer from Tandem's server at all. */
      let unreached: boolean;
      const openedAs = currentCacheIdentity();
      connection = new AbortController();
      if (identityChanged) {
        // Another identity's stream: a first connection for it (nothing of its own was missed), opened at once.
        identityChanged = false;
        firstConnection = true;
        failures = 0;
      }
      try {
        const token = await bridge.token();
        const headers: Record<string, string> = { traceparent: formatTraceparent(newTraceContext()) };
        if (token !== null) headers.authorization = `Bearer ${token}`;
        const response = await fetch("/api/events", { headers, signal: connection.signal });
        if (response.status === 401 || response.status === 403) {
          await queryClient.invalidateQueries({ queryKey: queryKeys.session() });
          // Tandem not active for the organization (uninstalled, suspended): the shell says so; tried again on the
          // backoff, so that once it is reinstalled the stream, and with it every read, comes back by itself.
          if (response.status === 403) throw new Error("live events: the organization's installation is not active");
          if (bridge.mode === "embedded" && !refreshedAfter401) {
            refreshedAfter401 = true;
            await bridge.freshToken();
            continue;
          }
          bridge.signInEnded();
          // Signed out: nothing to reconnect to. Inside the EHR its session ended; a new one may come: back off, then one fresh token again.
          if (bridge.mode === "standalone") return;
          refreshedAfter401 = false;
          throw new Error("live events: the EHR session was refused");
        }
        refreshedAfter401 = false;
        if (!response.ok || !response.body) throw new Error(`live events answered ${response.status}`);
        reportBffAnswered();
        if (!firstConnection) await invalidateEveryRead(queryClient);
        firstConnection = false;
        failures = 0;
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const { events, retryMs: hint, rest } = parseFrames(buffer + decoder.decode(value, { stream: true }));
          buffer = rest;
          if (hint !== null) hintedMs = hint;
          for (const event of events) {
            if (event.type === "waitlist.offer") receiveLiveOffer(openedAs, event.offer);
            // Not awaited: the reads an event starts must not hold up the next frame (a waitlist offer
            // behind a schedule change waited ~2.8 s for the Availability view's reads, bench/waitlist-alert-bench.ts).
            for (const queryKey of invalidationsFor(event, queryKeysOf(openedAs))) void queryClient.invalidateQueries({ queryKey });
          }
        }
        unreached = false;
      } catch (error) {
        if (controller.signal.aborted) return;
        // fetch's own failure (no answer, or the connection lost mid-stream), not a refusal the BFF answered.
        unreached = error instanceof TypeError;
      }
      if (identityChanged) continue;
      if (hintedMs !== null) {
        await pause(hintedMs, connection.signal);
        continue;
      }
      failures += 1;
      // A stream the BFF refused (a quota, a 503) waits its turn: other calls answered say nothing of it.
      await (unreached ? pauseUntilAnswered : pause)(tandemRetryDelayMs(failures), connection.signal);
    }
  };
  void run();
  return () => controller.abort();
}
