import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import type { Clock } from "../clock.ts";
import { APP_SLUG } from "../world/identities.ts";
import type { SigningKey } from "./signing-keys.ts";

// DESIGN.md "The host bridge" 2: a host token exactly as the platform issues it.

export const HOST_TOKEN_TYPE = "host-session+jwt";
/** `exp` at most 5 minutes after `iat`. */
export const HOST_TOKEN_LIFETIME_SECONDS = 300;

export interface HostTokenClaims {
  organizationId: string;
  /** The provider's id as v1 gives it (raw UUID). */
  userId: string;
  roles: string[];
  facilityId?: string;
  patientId?: string;
  noteId?: string;
}

export async function issueHostToken(key: SigningKey, issuer: string, clock: Clock, claims: HostTokenClaims): Promise<string> {
  const iat = Math.floor(clock.now() / 1000);
  const payload: Record<string, unknown> = { org_id: claims.organizationId, provider_id: claims.userId, roles: claims.roles };
  if (claims.facilityId) payload.facility_id = claims.facilityId;
  if (claims.patientId) payload.patient_id = claims.patientId;
  if (claims.noteId) payload.note_id = claims.noteId;
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "ES256", typ: HOST_TOKEN_TYPE, kid: key.kid })
    .setIssuer(issuer)
    .setAudience(APP_SLUG)
    .setSubject(claims.userId)
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setNotBefore(iat)
    .setExpirationTime(iat + HOST_TOKEN_LIFETIME_SECONDS)
    .sign(key.privateKey);
}
