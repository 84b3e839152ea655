import { describe, expect, it } from "vitest";
import { s256Challenge, verifiesChallenge } from "./pkce.ts";

// RFC 7636 Appendix B's example.

describe("PKCE S256", () => {
  const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
  const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

  it("derives the RFC's challenge from its verifier", () => {
    expect(s256Challenge(verifier)).toBe(challenge);
    expect(verifiesChallenge(verifier, challenge)).toBe(true);
  });

  it("refuses another verifier", () => {
    expect(verifiesChallenge(`${verifier}x`, challenge)).toBe(false);
    expect(verifiesChallenge(verifier, challenge.slice(1))).toBe(false);
  });
});
