import { randomBytes } from "node:crypto";
import { ACCESS_TOKEN_LIFETIME_SECONDS } from "#contract/clinic-api/oauth.ts";
import type { Clock } from "../clock.ts";

// Access tokens of the token response (RFC 6749 5.1): opaque, random, bound
// to the account and the organizations the exchange authorized, by the
// emulator's clock. They open the userinfo endpoint and nothing else: data
// calls take a data key, never one of these.

export interface AccessTokenGrant {
  accountId: string;
  clientId: string;
  organizationIds: readonly string[];
  /** Epoch ms on the emulator's clock. */
  expiresAt: number;
}

export class AccessTokens {
  private tokens = new Map<string, AccessTokenGrant>();

  constructor(private readonly clock: Clock) {}

  issue(grant: Omit<AccessTokenGrant, "expiresAt">): { accessToken: string; expiresIn: number } {
    const now = this.clock.now();
    for (const [token, record] of this.tokens) if (record.expiresAt <= now) this.tokens.delete(token);
    const accessToken = randomBytes(32).toString("base64url");
    this.tokens.set(accessToken, { ...grant, organizationIds: [...grant.organizationIds], expiresAt: now + ACCESS_TOKEN_LIFETIME_SECONDS * 1000 });
    return { accessToken, expiresIn: ACCESS_TOKEN_LIFETIME_SECONDS };
  }

  /** The grant of a token that has not expired. */
  find(accessToken: string): AccessTokenGrant | undefined {
    const record = this.tokens.get(accessToken);
    return record && this.clock.now() < record.expiresAt ? record : undefined;
  }

  clear(): void {
    this.tokens.clear();
  }
}
