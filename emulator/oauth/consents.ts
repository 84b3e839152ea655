import { createHash } from "node:crypto";
import type { ServiceState } from "../service/service-state.ts";
import type { OAuthClient } from "./oauth-client.ts";

// Remembered consent (seed 001: "A repeated authorization with unchanged
// permissions redirects at once with no consent screen. Changed permissions
// show the consent screen again."). Per account and client: the
// organizations chosen and a fingerprint of the permissions behind them, the
// manifest's required and optional scopes and, per chosen organization, the
// installation's status and grants.

export interface RememberedConsent {
  organizationIds: string[];
  fingerprint: string;
}

export function permissionFingerprint(client: OAuthClient, state: ServiceState, organizationIds: readonly string[]): string {
  const organizations = [...organizationIds].sort().map((organizationId) => {
    const installation = state.org(organizationId)?.installation;
    return { organizationId, status: installation?.status ?? "none", granted: [...(installation?.grantedPermissions ?? [])].sort() };
  });
  const material = JSON.stringify({ required: [...client.requiredScopes].sort(), optional: [...client.optionalScopes].sort(), organizations });
  return createHash("sha256").update(material).digest("base64url");
}

export class Consents {
  private consents = new Map<string, RememberedConsent>();

  private static key(accountId: string, clientId: string): string {
    return `${accountId}|${clientId}`;
  }

  get(accountId: string, clientId: string): RememberedConsent | undefined {
    return this.consents.get(Consents.key(accountId, clientId));
  }

  remember(accountId: string, clientId: string, consent: RememberedConsent): void {
    this.consents.set(Consents.key(accountId, clientId), { organizationIds: [...consent.organizationIds], fingerprint: consent.fingerprint });
  }

  clear(): void {
    this.consents.clear();
  }
}
