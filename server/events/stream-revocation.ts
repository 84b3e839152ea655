import * as z from "zod/mini";

// Which open `GET /api/events` streams must end at once (DESIGN.md "Rules":
// revoking a session or a user's access closes their live streams within a
// second): a standalone session signed out or ended by the service; every
// standalone session of a user but one ("sign out everywhere else"), or all
// of them (their access changed at the service's re-check); every stream of
// an organization whose installation is no longer active. Sent over the
// live-event bus, so every process sharing the store ends its own.

export const streamRevocation = z.discriminatedUnion("scope", [
  z.object({ scope: z.literal("session"), sessionId: z.string() }),
  z.object({ scope: z.literal("user"), userId: z.string(), exceptSessionId: z.nullable(z.string()) }),
  z.object({ scope: z.literal("organization"), organizationId: z.string() }),
]);
export type StreamRevocation = z.infer<typeof streamRevocation>;

/** Whose stream it is. */
export interface LiveStreamOwner {
  organizationId: string;
  userId: string;
  /** The standalone sign-in's session; null for a host token (the EHR's session, which Tandem cannot revoke). */
  sessionId: string | null;
}

export function isRevoked(owner: LiveStreamOwner, revocation: StreamRevocation): boolean {
  switch (revocation.scope) {
    case "session":
      return owner.sessionId === revocation.sessionId;
    case "user":
      // A user's standalone sign-ins only: a host token's stream ends with the token (at most 5 minutes).
      return owner.sessionId !== null && owner.userId === revocation.userId && owner.sessionId !== revocation.exceptSessionId;
    case "organization":
      return owner.organizationId === revocation.organizationId.toLowerCase();
  }
}
