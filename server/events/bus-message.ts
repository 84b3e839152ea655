import * as z from "zod/mini";
import { liveEvent } from "#contract/app-api/live-events.ts";
import { streamRevocation } from "./stream-revocation.ts";

// What one BFF process tells the others over the live-event bus (ADR 0009):
// a live event for the streams of an organization, a cache invalidation, an
// installation whose stored record changed, streams to end now (a session or
// a user's access revoked, an installation no longer active). `origin` names the sending
// process, so it can skip what it already did itself. Validated on receipt;
// anything else on the channel is ignored.

export const busMessage = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("live-event"), origin: z.string(), organizationId: z.string(), event: liveEvent }),
  /** `prefix` null: every cached read of the organization; `facilityId` and `date`: only reads covering them (server/clinic/answer-cache.ts). */
  z.object({
    kind: z.literal("cache-invalidated"),
    origin: z.string(),
    organizationId: z.string(),
    prefix: z.nullable(z.string()),
    facilityId: z.optional(z.string()),
    date: z.optional(z.string()),
  }),
  z.object({ kind: z.literal("installation-changed"), origin: z.string(), organizationId: z.string() }),
  z.object({ kind: z.literal("streams-revoked"), origin: z.string(), revocation: streamRevocation }),
]);
export type BusMessage = z.infer<typeof busMessage>;

export function encodeBusMessage(message: BusMessage): string {
  return JSON.stringify(message);
}

/** The message, or null for a payload that is not one (malformed, or of a kind this version does not know). */
export function decodeBusMessage(payload: string): BusMessage | null {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return null;
  }
  const parsed = z.safeParse(busMessage, json);
  return parsed.success ? parsed.data : null;
}
