import { createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTPayload } from "jose";
import * as z from "zod/mini";
import { rawUuid } from "#contract/clinic-api/primitives.ts";
import { describeZodError } from "#contract/validation.ts";
import { personKeyOf } from "./person-key.ts";

// DESIGN.md "The host bridge" 2-3: ES256 only, key from the platform's JWKS
// (cached, refetched on an unknown kid with a floor between refetches), exact
// iss, aud and typ, time claims with at most 30 s skew, exp at most 5 minutes
// after iat. Kept in this one module so a vendor SDK can replace it.

export const HOST_TOKEN_TYPE = "host-session+jwt";
const MAX_SKEW_SECONDS = 30;

/**
 * Until when (epoch ms) the verifier still accepts the token: its `exp` plus
 * the allowed clock skew. A spent `jti` must be remembered at least that long,
 * or the token could be spent again after `exp`.
 */
export const acceptedUntilMs = (session: { expiresAt: number }): number => (session.expiresAt + MAX_SKEW_SECONDS) * 1000;
const MAX_LIFETIME_SECONDS = 300;

const hostTokenClaims = z.object({
  sub: z.string().check(z.minLength(1)),
  org_id: rawUuid,
  provider_id: z.string().check(z.minLength(1)),
  roles: z.array(z.string()),
  facility_id: z.optional(z.string()),
  patient_id: z.optional(z.string()),
  note_id: z.optional(z.string()),
  jti: z.string().check(z.minLength(1)),
  iat: z.number(),
  nbf: z.number(),
  exp: z.number(),
});

export interface HostSession {
  /** A host token from the EHR's bridge, or a standalone sign-in's session cookie. */
  kind: "host" | "standalone";
  /**
   * Who the user is to Tandem's own records (holds, drafts, views, recent
   * notes, limits): the person key of `personKeyOf` (ADR 0024), the same
   * inside and outside the EHR. Never the account: that is `accountId`.
   */
  userId: string;
  /** Who signed in: the host token's `sub`, or the standalone sign-in's id_token `sub`. The audit trail names it. */
  accountId: string;
  /** The user's provider in the organization; null when a standalone sign-in names none there. */
  providerId: string | null;
  /** From a standalone sign-in's profile (host tokens carry no name: the provider list does). */
  displayName?: string;
  /** A standalone sign-in's session (what signing out revokes); host tokens have none. */
  sessionId?: string;
  organizationId: string;
  roles: string[];
  facilityId: string | null;
  patientId: string | null;
  noteId: string | null;
  jti: string;
  /** Epoch seconds. */
  expiresAt: number;
}

export class InvalidHostToken extends Error {}

export interface HostTokenVerifierOptions {
  issuer: string;
  jwksUrl: string;
  audience: string;
  fetch?: typeof fetch;
  /** Epoch ms; real time by default. */
  now?: () => number;
  /** Floor between JWKS refetches on an unknown kid. */
  jwksCooldownMs?: number;
  /** Verified tokens remembered at once; default 10,000. */
  maxRememberedTokens?: number;
}

export type HostTokenVerifier = ((token: string) => Promise<HostSession>) & {
  /** How many verified tokens are remembered now (bounded by `maxRememberedTokens`). */
  remembered?: () => number;
};

function reasonOf(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "the host token has expired";
  if (error instanceof errors.JWTClaimValidationFailed) return `the host token's ${error.claim} claim is not valid (${error.reason})`;
  if (error instanceof errors.JOSEAlgNotAllowed) return "the host token must be signed with ES256";
  if (error instanceof errors.JWKSNoMatchingKey) return "the host token is signed with an unknown key";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the host token's signature is not valid";
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return "the host token is malformed";
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return "the platform's signing keys could not be read";
  return "the host token is not valid";
}

/**
 * Verified tokens are remembered until they expire: the SPA reuses one token
 * for its reads. Bounded by count, so valid tokens minted without end (each
 * is at most about 1 KB with its session) cannot grow memory: when full, the
 * expired ones go first (a scan at most once a second), then the oldest.
 */
const MAX_REMEMBERED_TOKENS = 10_000;
const EXPIRED_SWEEP_INTERVAL_MS = 1_000;

export function createHostTokenVerifier(options: HostTokenVerifierOptions): HostTokenVerifier {
  const now = options.now ?? Date.now;
  const maxRemembered = options.maxRememberedTokens ?? MAX_REMEMBERED_TOKENS;
  const verified = new Map<string, HostSession>();
  let lastSweep = Number.NEGATIVE_INFINITY;
  const remember = (token: string, session: HostSession) => {
    if (verified.size >= maxRemembered && now() - lastSweep >= EXPIRED_SWEEP_INTERVAL_MS) {
      lastSweep = now();
      for (const [key, value] of verified) if (acceptedUntilMs(value) <= lastSweep) verified.delete(key);
    }
    while (verified.size >= maxRemembered) verified.delete(verified.keys().next().value ?? "");
    verified.set(token, session);
  };
  const jwksFetch = options.fetch;
  const jwks = createRemoteJWKSet(new URL(options.jwksUrl), {
    cooldownDuration: options.jwksCooldownMs ?? 30_000,
    cacheMaxAge: 10 * 60_000,
    ...(jwksFetch && { [customFetch]: (url: string, init: RequestInit) => jwksFetch(url, init) }),
  });

  const verify = async (token: string): Promise<HostSession> => {
    const known = verified.get(token);
    // Expiry is checked again (30 s skew, as jose does); everything else was verified once.
    if (known && known.expiresAt + MAX_SKEW_SECONDS > now() / 1000) return known;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, jwks, {
        algorithms: ["ES256"],
        issuer: options.issuer,
        audience: options.audience,
        typ: HOST_TOKEN_TYPE,
        clockTolerance: MAX_SKEW_SECONDS,
        currentDate: new Date(now()),
        requiredClaims: ["iat", "nbf", "exp", "jti", "sub"],
      }));
    } catch (error) {
      throw new InvalidHostToken(reasonOf(error));
    }
    const claims = z.safeParse(hostTokenClaims, payload);
    if (!claims.success) throw new InvalidHostToken(`the host token's claims are not valid: ${describeZodError(claims.error)}`);
    const { data } = claims;
    if (data.exp - data.iat > MAX_LIFETIME_SECONDS) throw new InvalidHostToken("the host token lives longer than 5 minutes");
    if (data.iat > now() / 1000 + MAX_SKEW_SECONDS) throw new InvalidHostToken("the host token was issued in the future");
    const session: HostSession = {
      kind: "host",
      userId: personKeyOf({ providerId: data.provider_id, accountId: data.sub }),
      accountId: data.sub,
      providerId: data.provider_id,
      organizationId: data.org_id.toLowerCase(),
      roles: data.roles,
      facilityId: data.facility_id ?? null,
      patientId: data.patient_id ?? null,
      noteId: data.note_id ?? null,
      jti: data.jti,
      expiresAt: data.exp,
    };
    remember(token, session);
    return session;
  };
  return Object.assign(verify, { remembered: () => verified.size });
}
