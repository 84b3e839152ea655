import { createHash, randomBytes } from "node:crypto";

// RFC 7636 S256: a 43-character verifier and BASE64URL(SHA256(verifier)).
// Also the unpredictable `state` and `nonce` of the sign-in.

export const randomToken = (bytes = 32) => randomBytes(bytes).toString("base64url");

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomToken(32);
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}
