import { createHash, timingSafeEqual } from "node:crypto";

// RFC 7636 4.6: S256 only. Comparisons of secrets are constant-time.

export function s256Challenge(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function verifiesChallenge(verifier: string, challenge: string): boolean {
  return constantTimeEqual(s256Challenge(verifier), challenge);
}
