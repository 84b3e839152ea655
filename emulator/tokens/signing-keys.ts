import { exportJWK, generateKeyPair, type CryptoKey, type JWK } from "jose";

// The platform's ES256 signing key, generated at start (DESIGN.md "The host
// bridge"); the same JWKS serves host tokens and OAuth id_tokens.

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export function createSigningKeys(): () => Promise<SigningKey> {
  let pending: Promise<SigningKey> | null = null;
  return () => {
    pending ??= (async () => {
      const { privateKey, publicKey } = await generateKeyPair("ES256");
      const publicJwk = await exportJWK(publicKey);
      const kid = `emu-${Date.now().toString(36)}`;
      return { kid, privateKey, publicJwk: { ...publicJwk, kid, alg: "ES256", use: "sig" } };
    })();
    return pending;
  };
}
