import { KNOWN_SCOPES } from "#contract/clinic-api/installation.ts";

// DESIGN.md "The sandbox identities": fixed, seeded by the emulator, used by tests.

export const ORG_A_ID = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
export const ORG_B_ID = "8c4e2d19-7a36-4b5f-a0e1-9d8c7b6a5f42";
export const ORG_C_ID = "d5a7c3b1-2e4f-4a6b-8c9d-0e1f2a3b4c53";
/**
 * Only at EMULATOR_SCALE=large, each installed with every scope granted: with
 * A and B, five installed organizations for the load benchmark (docs/sandbox.md
 * "The sandbox identities"). The default world has none of them.
 */
export const ORG_D_ID = "6e2b9f47-c3a8-4d15-b7e9-2a4c6d8e0f74";
export const ORG_E_ID = "a9d3e5f1-8b27-4c6e-9f0a-3b5c7d9e1a85";
export const ORG_F_ID = "f2c8a4e6-1d39-4b7a-8e5c-6a0b2d4f8c96";

export const APP_SLUG = "tandem";

export const REQUIRED_SCOPES = ["read:appointments", "read:facilities", "read:providers", "write:soap_notes"] as const;

export const WEBHOOK_SIGNING_SECRET = "whsec_AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcY";

export interface DataKey {
  key: string;
  scopes: readonly string[];
  revoked: boolean;
}

export const DATA_KEYS: readonly DataKey[] = [
  { key: "svc_dev_ak_5a0d1e2f3a4b5c6d7e8f90a1b2c3d4e5", scopes: KNOWN_SCOPES, revoked: false },
  { key: "svc_dev_ak_0e7a0e7a0e7a0e7a0e7a0e7a0e7a0e7a", scopes: ["read:eras"], revoked: false },
  { key: "svc_dev_ak_dead0000dead0000dead0000dead0000", scopes: KNOWN_SCOPES, revoked: true },
];
