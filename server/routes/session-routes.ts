import type { Hono } from "hono";
import { isClinicalRole, type Session } from "#contract/app-api/session.ts";
import { isSameId } from "#contract/ids.ts";
import type { ClinicClient } from "../clinic/clinic-client.ts";
import type { AppEnv } from "../http/app-env.ts";
import { listVisibleFacilities, toPickerFacility } from "./directory-routes.ts";

// GET /api/session: who the verified token says the user is, in which
// organization, with which grants, and what the host has in view.

export function registerSessionRoutes(api: Hono<AppEnv>, clinic: ClinicClient): void {
  api.get("/session", async (c) => {
    const session = c.get("session");
    const installation = c.get("installation");
    const granted = c.get("grantedScopes");
    const [providers, facilities] = await Promise.all([
      clinic.listAll("GET /v1/providers", "providers", { organizationId: session.organizationId }),
      listVisibleFacilities(clinic, session.organizationId),
    ]);
    const providerId = session.providerId;
    const provider = providerId === null ? undefined : providers.find((candidate) => isSameId(candidate.id, providerId));
    const body: Session = {
      user: {
        id: providerId ?? session.accountId,
        firstName: provider?.firstName ?? "",
        lastName: provider?.lastName ?? "",
        displayName: provider ? `${provider.displayFirstName} ${provider.displayLastName}`.trim() : (session.displayName ?? "Unknown user"),
        title: provider?.title ?? "",
        roles: session.roles,
      },
      organization: { id: session.organizationId, installationStatus: installation.status, settings: installation.settings },
      facilities: facilities.map(toPickerFacility).map(({ id, name, timezone }) => ({ id, name, timezone })),
      grantedScopes: [...granted].sort(),
      context: { facilityId: session.facilityId, patientId: session.patientId, noteId: session.noteId },
      capabilities: {
        canHoldSlots: true,
        // Embedded: the note open in the EHR. Standalone: notes assigned to the user's provider.
        canEditNotes: isClinicalRole(session.roles) && (session.kind === "standalone" ? session.providerId !== null : session.noteId !== null) && granted.has("write:soap_notes"),
        canReadPatients: granted.has("read:patients"),
      },
      tokenExpiresAt: new Date(session.expiresAt * 1000).toISOString(),
    };
    return c.json(body);
  });
}
