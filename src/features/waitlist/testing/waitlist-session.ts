import type { Session } from "#contract/app-api/session.ts";

/** A front-desk or scheduler user of org A, as GET /api/session answers it: who the waitlist's component tests sign in as. */
export function waitlistUserSession(role: "Front Desk" | "Scheduler"): Session {
  return {
    user: { id: "prv_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", firstName: "Fran", lastName: "Desk", displayName: "Fran Desk", title: "", roles: [role] },
    organization: { id: "org_a", installationStatus: "active", settings: {} },
    facilities: [],
    grantedScopes: [],
    context: { facilityId: null, patientId: null, noteId: null },
    capabilities: { canHoldSlots: true, canEditNotes: false, canReadPatients: true },
    tokenExpiresAt: "2099-01-01T00:00:00.000Z",
  };
}
