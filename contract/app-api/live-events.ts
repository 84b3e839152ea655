import * as z from "zod/mini";

// GET /api/events: the server-sent events of one organization.

export const liveEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("schedule.changed"), facilityId: z.string(), date: z.nullable(z.string()) }),
  z.object({ type: z.literal("note.changed"), noteId: z.string() }),
  z.object({ type: z.literal("installation.changed"), status: z.string(), grantedScopes: z.array(z.string()) }),
  z.object({ type: z.literal("directory.changed"), resource: z.enum(["providers", "facilities"]) }),
]);
export type LiveEvent = z.infer<typeof liveEvent>;

export const LIVE_EVENT_NAME = "tandem";
export const HEARTBEAT_EVENT_NAME = "heartbeat";
