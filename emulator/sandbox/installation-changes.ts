import type { InstallationStatus } from "#contract/clinic-api/installation.ts";
import type { OrgState } from "../service/service-state.ts";
import type { WebhookEvent } from "../webhooks/webhook-dispatcher.ts";
import { REQUIRED_SCOPES } from "../world/identities.ts";

// Seed 000 "Transitions that are shown" for installations, and seed 001's
// lifecycle events. `app.suspended` and `app.reactivated` are defined but not
// yet emitted by the service, so the emulator does not emit them either.
// `grantedPermissions` holds the optional scopes granted only: the manifest's
// required scopes are granted with the installation and never repeated
// (seed 000), so a control naming one has it left out.

export interface InstallationChange {
  status: InstallationStatus;
  grantedPermissions?: string[];
  settings?: Record<string, unknown>;
}

export function applyInstallationChange(org: OrgState, change: InstallationChange, now: number): WebhookEvent[] {
  const installation = org.installation;
  const timestamp = new Date(now).toISOString();
  const before = { status: installation.status, granted: [...installation.grantedPermissions].sort().join(",") };
  if (change.grantedPermissions) installation.grantedPermissions = [...new Set(change.grantedPermissions)].filter((scope) => !(REQUIRED_SCOPES as readonly string[]).includes(scope));
  if (change.settings) installation.settings = change.settings;
  installation.status = change.status;
  installation.updatedAt = timestamp;
  const organizationId = org.ehr.id;
  const events: WebhookEvent[] = [];

  if (before.status === "uninstalled" && change.status === "active") {
    installation.installedAt = timestamp;
    events.push({
      type: "app.installed",
      data: { organizationId, grantedPermissions: installation.grantedPermissions, settings: installation.settings, installedBy: null },
      timestamp,
    });
  } else if (before.status !== "uninstalled" && change.status === "uninstalled") {
    events.push({ type: "app.uninstalled", data: { organizationId }, timestamp });
  } else if (before.status === change.status && before.granted !== [...installation.grantedPermissions].sort().join(",")) {
    events.push({ type: "installation.permissions_updated", data: { organizationId, grantedPermissions: installation.grantedPermissions }, timestamp });
  }
  return events;
}
