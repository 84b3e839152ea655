import type { LiveEvent } from "#contract/app-api/live-events.ts";
import { WRITE_IN_FLIGHT_MS } from "../clinic/write-outcome.ts";
import type { Logger } from "../logger.ts";
import type { WriteIntent, WriteIntentRepository } from "../store/store.ts";
import type { LiveEventPublisher } from "./live-event-bus.ts";

// A write whose process died mid-call (Tandem's server restarted, or one of
// its processes was killed) is left `pending`, and reads as unknown once it
// is WRITE_IN_FLIGHT_MS old (write-outcome.ts): a hold the EHR may have
// made is then listed as not confirmed, a task as unconfirmed, and a note's
// change is settled by the note's next read. No request marks that moment,
// so the user's open tabs, which read everything again when their stream
// came back, would not read again and never list it. Every few seconds the
// writes that reached it since the last look are announced, as their route
// announces a write: `holds.changed` to the user, `note.changed` for the
// note. Every process looks; an event sent twice only has a tab read again.

/** The live event that has the write's audience read again. */
function strandedWriteEvent(intent: Pick<WriteIntent, "kind" | "userId" | "subjectId">): LiveEvent {
  return intent.kind === "hold" ? { type: "holds.changed", userId: intent.userId } : { type: "note.changed", noteId: intent.subjectId };
}

export interface StrandedWriteAnnouncer {
  /** Announces the writes that have come to read as unknown since the last call; how many events it sent. */
  announceDue(): Promise<number>;
  /** Every `intervalMs` until the returned function is called. */
  start(intervalMs?: number): () => void;
}

export function createStrandedWriteAnnouncer(deps: { intents: WriteIntentRepository; live: LiveEventPublisher; logger: Logger; now: () => number }): StrandedWriteAnnouncer {
  // Writes already past it when this process starts read as unknown to any tab: one reconnecting reads everything again.
  let announcedUpTo = deps.now() - WRITE_IN_FLIGHT_MS;
  let running: Promise<number> | null = null;

  async function announce(): Promise<number> {
    const upTo = deps.now() - WRITE_IN_FLIGHT_MS;
    if (upTo <= announcedUpTo) return 0;
    const stranded = await deps.intents.listPendingRecordedBetween(announcedUpTo, upTo);
    announcedUpTo = upTo;
    const events = new Map<string, { organizationId: string; event: LiveEvent }>();
    for (const intent of stranded) {
      const event = strandedWriteEvent(intent);
      events.set(`${intent.organizationId} ${JSON.stringify(event)}`, { organizationId: intent.organizationId, event });
    }
    for (const { organizationId, event } of events.values()) deps.live.publish(organizationId, event);
    return events.size;
  }

  const announcer: StrandedWriteAnnouncer = {
    announceDue() {
      running ??= announce().finally(() => {
        running = null;
      });
      return running;
    },
    start(intervalMs = 5_000) {
      const tick = () => {
        announcer.announceDue().catch((error: unknown) => deps.logger.warn({ err: error }, "announcing writes left pending failed; the next look tries again"));
      };
      const timer = setInterval(tick, intervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
  return announcer;
}
