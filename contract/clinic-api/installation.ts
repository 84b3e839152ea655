import * as z from "zod/mini";
import { rawUuid, utcTimestamp } from "./primitives.ts";

// Assumed contract (DESIGN.md): GET /v1/installations, the reconciliation list
// the seeds name (seed 001, "Delivery guarantees" 5).

export const INSTALLATION_STATUSES = ["active", "uninstalled", "suspended"] as const;
export type InstallationStatus = (typeof INSTALLATION_STATUSES)[number];

export const installation = z.object({
  organizationId: rawUuid,
  status: z.enum(INSTALLATION_STATUSES),
  /** Optional scopes agreed; required scopes are not repeated (seed 001, `app.installed`). */
  grantedPermissions: z.array(z.string()),
  /** The clinic's answers to the app version's settings schema. */
  settings: z.record(z.string(), z.unknown()),
  installedAt: utcTimestamp,
  updatedAt: utcTimestamp,
});
export type Installation = z.infer<typeof installation>;

/** Scopes seen in the seeds (seed 001, "Authentication"); the full list is not shown. */
export const KNOWN_SCOPES = [
  "read:eras",
  "read:patients",
  "read:claims",
  "read:appointments",
  "read:facilities",
  "read:providers",
  "read:patient_documents",
  "read:faxes",
  "read:phone_numbers",
  "write:soap_notes",
] as const;
