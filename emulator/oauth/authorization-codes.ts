import { randomBytes } from "node:crypto";
import { AUTHORIZATION_CODE_LIFETIME_SECONDS } from "#contract/clinic-api/oauth.ts";
import type { Clock } from "../clock.ts";

// Authorization codes (seed 001 "Limits": 10 minutes, single use), by the
// emulator's clock. A code is spent by the first exchange that presents it,
// whether or not that exchange succeeds, and stays spent: a replay, or a
// guess at the PKCE verifier, never gets a second try.

export interface CodeGrant {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  nonce: string | null;
  accountId: string;
  organizationIds: string[];
  /** Epoch ms of the sign-in behind the code. */
  authTime: number;
}

interface CodeRecord extends CodeGrant {
  expiresAt: number;
  spent: boolean;
}

export type Redemption = { kind: "ok"; grant: CodeGrant } | { kind: "unknown" } | { kind: "spent" } | { kind: "expired" };

/** Spent and expired codes are kept this long after expiry, so a late replay is still told apart from a made-up code. */
const KEEP_AFTER_EXPIRY_MS = 60 * 60 * 1000;

export class AuthorizationCodes {
  private codes = new Map<string, CodeRecord>();

  constructor(private readonly clock: Clock) {}

  issue(grant: CodeGrant): string {
    const now = this.clock.now();
    for (const [code, record] of this.codes) if (record.expiresAt + KEEP_AFTER_EXPIRY_MS <= now) this.codes.delete(code);
    const code = randomBytes(32).toString("base64url");
    this.codes.set(code, { ...grant, organizationIds: [...grant.organizationIds], expiresAt: now + AUTHORIZATION_CODE_LIFETIME_SECONDS * 1000, spent: false });
    return code;
  }

  redeem(code: string): Redemption {
    const record = this.codes.get(code);
    if (!record) return { kind: "unknown" };
    if (record.spent) return { kind: "spent" };
    record.spent = true;
    if (this.clock.now() >= record.expiresAt) return { kind: "expired" };
    const { expiresAt: _expiresAt, spent: _spent, ...grant } = record;
    return { kind: "ok", grant };
  }

  clear(): void {
    this.codes.clear();
  }
}
