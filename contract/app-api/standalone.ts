import * as z from "zod/mini";

// Standalone sign-in, as the SPA sees it (DESIGN.md "Standalone mode"):
// GET /auth/session, POST /auth/organization, POST /auth/logout, and the
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

export const organizationChoiceResponse = z.object({ selectedOrganizationId: z.string() });

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
