import * as oidc from "openid-client";
import { beforeEach, describe, expect, it } from "vitest";
import { findMultiOrgAccount, findSingleOrgAccount } from "../../../emulator/oauth/accounts.ts";
import { obtainAuthorizationCode } from "../../../emulator/oauth/testing/oauth-flow.ts";
import { TestBrowser } from "../../../emulator/oauth/testing/test-browser.ts";
import { createTestEmulator, FULL_KEY } from "../../../emulator/testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID } from "../../../emulator/world/identities.ts";
import { createLogger } from "../../logger.ts";
import { exchangeCode, type IssuedAccessToken } from "./code-exchange.ts";
import { fetchCurrentProfile } from "./current-profile.ts";
import { createOidcClient } from "./oidc-client.ts";

// Re-checking a standalone session (OIDC Core 5.3): the access token of the
// BFF's own code exchange, against the emulator in-process, read back as
// the service has the user now. Refused tokens are `revoked`; failures that
// say nothing about the user are `unavailable`.

const REDIRECT_URI = "http://localhost:8787/auth/callback";

describe("fetchCurrentProfile", () => {
  const { emulator, sandbox } = createTestEmulator();
  let logLines: string[] = [];
  // A logger per test: the logger writes a repeated warning once per 10 s.
  let logger = createLogger({ level: "warn", secrets: [FULL_KEY] });
  const client = createOidcClient({
    issuer: emulator.settings.publicUrl,
    clientId: "tandem",
    dataKey: FULL_KEY,
    allowInsecureRequests: true,
    fetch: (input, init) => Promise.resolve(emulator.app.fetch(new Request(input, init))),
    now: () => emulator.clock.now(),
  });
  const current = (token: string, sub?: string) => fetchCurrentProfile(client, logger, token, sub);

  beforeEach(async () => {
    await sandbox("POST", "/reset");
    const lines: string[] = [];
    logLines = lines;
    logger = createLogger({ level: "warn", secrets: [FULL_KEY], destination: { write: (line: string) => void lines.push(line) } });
  });

  async function signIn(accountId: string): Promise<IssuedAccessToken> {
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const { code } = await obtainAuthorizationCode(new TestBrowser((path, init) => emulator.app.request(path, init)), {
      redirectUri: REDIRECT_URI,
      state: "st-1",
      nonce: "n-1",
      codeChallenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      accountId,
    });
    const callbackUrl = new URL(`${REDIRECT_URI}?code=${encodeURIComponent(code)}&state=st-1`);
    const exchange = await exchangeCode(client, { callbackUrl, state: "st-1", nonce: "n-1", codeVerifier, now: emulator.clock.now() });
    if (exchange.kind !== "ok") throw new Error(`sign-in failed: ${exchange.reason}`);
    return exchange.accessToken;
  }

  it("answers the user's providers and organizations as the EHR has them now, with the session's raw ids", async () => {
    const account = findMultiOrgAccount(emulator.state);
    const token = await signIn(account.id);
    expect(token.expiresAt).toBe(emulator.clock.now() + 8 * 60 * 60 * 1000);
    const [inA, inB] = account.memberships;
    if (!inA || !inB) throw new Error("the multi-organization account lacks a membership");

    const before = await current(token.value, account.id);
    if (before.kind !== "ok") throw new Error(before.kind);
    expect(before.sub).toBe(account.id);
    expect(before.profile.email).toBe(account.email);
    expect(before.profile.providers).toEqual([
      { organizationId: ORG_A_ID, providerId: inA.providerId, roles: ["Physician"] },
      { organizationId: ORG_B_ID, providerId: inB.providerId, roles: ["Physician"] },
    ]);
    expect(before.profile.organizations.map((organization) => organization.organizationId)).toEqual([ORG_A_ID, ORG_B_ID]);
    expect(before.profile.organizations[0]?.facilities[0]?.id).toMatch(/^[0-9a-f]{8}-/);

    await sandbox("PATCH", `/ehr/${ORG_A_ID}/providers/${inA.providerId}`, { roles: ["Front Desk"] });
    await sandbox("PATCH", `/ehr/${ORG_B_ID}/providers/${inB.providerId}`, { active: false });
    const after = await current(token.value, account.id);
    if (after.kind !== "ok") throw new Error(after.kind);
    expect(after.profile.providers).toEqual([{ organizationId: ORG_A_ID, providerId: inA.providerId, roles: ["Front Desk"] }]);
  });

  it("is revoked for an unknown or expired token, an account that can sign in nowhere, or another user's token", async () => {
    const frontDesk = findSingleOrgAccount(emulator.state, ORG_A_ID, "Front Desk");
    const token = await signIn(frontDesk.id);
    expect(await current("made-up")).toEqual({ kind: "revoked" });
    expect(await current(token.value, findMultiOrgAccount(emulator.state).id)).toEqual({ kind: "revoked" });
    expect((await current(token.value, frontDesk.id)).kind).toBe("ok");

    await sandbox("PATCH", `/ehr/${ORG_A_ID}/providers/${frontDesk.memberships[0]?.providerId ?? ""}`, { active: false });
    expect(await current(token.value, frontDesk.id)).toEqual({ kind: "revoked" });

    const other = await signIn(findMultiOrgAccount(emulator.state).id);
    await sandbox("POST", "/clock", { advanceSeconds: 8 * 60 * 60 });
    expect(await current(other.value)).toEqual({ kind: "revoked" });
  });

  it.each([
    ["server_unresponsive", 503],
    ["rate_limit_exceeded", 429],
    ["internal_error", 500],
  ])("is unavailable when userinfo fails with %s (%i), and says why in the log", async (code) => {
    const token = await signIn(findMultiOrgAccount(emulator.state).id);
    await sandbox("POST", "/faults", { method: "GET", path: "/v3/oauth/userinfo", code, count: 1 });
    expect(await current(token.value)).toEqual({ kind: "unavailable" });
    expect(logLines.join("\n")).toMatch(/userinfo could not be read/);
    expect((await current(token.value)).kind).toBe("ok");
  });
});
