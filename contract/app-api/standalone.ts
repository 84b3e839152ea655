import * as z from "zod/mini";
import { rawUuid } from "../clinic-api/primitives.ts";

// Standalone sign-in, as the SPA sees it (DESIGN.md "Standalone mode"):
// GET /auth/session, POST /auth/organization, POST /auth/logout, the
// session list (GET and DELETE /auth/sessions), and the
// codes /auth/callback sends the browser back to /signin with.

export const standaloneSignInState = z.union([
  z.object({ signedIn: z.literal(false) }),
  z.object({
    signedIn: z.literal(true),
    user: z.object({ displayName: z.string(), email: z.string() }),
    /** The organizations the user shared with Tandem at sign-in. */
    organizations: z.array(z.object({ id: z.string(), name: z.string(), facilityCount: z.int() })),
    selectedOrganizationId: z.nullable(z.string()),
    expiresAt: z.string(),
  }),
]);
export type StandaloneSignInState = z.infer<typeof standaloneSignInState>;

/** GET /auth/sessions: where the user is signed in (ADR 0010 "sessions live on the server"); DELETE /auth/sessions/{id} ends one, DELETE /auth/sessions all others. */
export const standaloneSessionList = z.object({
  sessions: z.array(
    z.object({
      id: z.string(),
      createdAt: z.string(),
      expiresAt: z.string(),
      /** The browser's own description of itself, as it signed in (trimmed). */
      userAgent: z.nullable(z.string()),
      /** The session of the request. */
      current: z.boolean(),
    }),
  ),
});
export type StandaloneSessionList = z.infer<typeof standaloneSessionList>;

/** `DELETE /auth/sessions/:sessionId`: the BFF mints session ids with `randomUUID` (server/auth/standalone/session-registry.ts). */
export const standaloneSessionId = rawUuid;

/** POST /auth/organization: one of the organizations the user shared, by its id (a raw UUID, as `X-Organization-Id` takes it). */
export const organizationChoice = z.strictObject({ organizationId: rawUuid });
export const organizationChoiceResponse = z.object({ selectedOrganizationId: z.string() });

/** POST /auth/logout: this browser's sign-in has ended (its session revoked, its cookie cleared). */
export const signedOutResponse = z.object({ signedOut: z.literal(true) });

/** Why a sign-in ended on /signin?error=…; the page words each one. */
export const STANDALONE_SIGN_IN_ERRORS = [
  "access_denied",
  "state_mismatch",
  "sign_in_expired",
  "sign_in_refused",
  "code_rejected",
  "identity_not_verified",
  "no_organization",
] as const;
export type StandaloneSignInError = (typeof STANDALONE_SIGN_IN_ERRORS)[number];
