import * as z from "zod/mini";
import { waitlistOffer } from "./waitlist.ts";

// GET /api/events: the server-sent events of one organization. `holds.changed`
// reaches only the streams of the user it names (every tab of theirs, on any
// BFF process): one of their holds was made or released, so every tab reads
// the holds again (issue 36 item 1). The `waitlist.*` events reach only the
// streams of front-desk and scheduler users (issue 38): an offer once per freed
// slot; `waitlist.changed` when an entry is added, edited or ends, or an offer
// is taken, so every such tab reads GET /api/waitlist again.

export const liveEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("schedule.changed"), facilityId: z.string(), date: z.nullable(z.string()) }),
  z.object({ type: z.literal("note.changed"), noteId: z.string() }),
  z.object({ type: z.literal("installation.changed"), status: z.string(), grantedScopes: z.array(z.string()) }),
  z.object({ type: z.literal("directory.changed"), resource: z.enum(["providers", "facilities"]) }),
  z.object({ type: z.literal("holds.changed"), userId: z.string() }),
  z.object({ type: z.literal("waitlist.offer"), offer: waitlistOffer }),
  z.object({ type: z.literal("waitlist.changed") }),
]);
export type LiveEvent = z.infer<typeof liveEvent>;

export const LIVE_EVENT_NAME = "tandem";
export const HEARTBEAT_EVENT_NAME = "heartbeat";
