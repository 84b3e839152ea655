import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import * as z from "zod/mini";

// Values the BFF hands the browser in a cookie and must get back unchanged
// and unread: the standalone session and the sign-in transaction (state,
// PKCE verifier, nonce). AES-256-GCM with a key derived per purpose from the
// configured secret, so a login cookie can never be replayed as a session.

const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface Sealer<T> {
  seal(value: T): string;
  /** The value, or null when the text was not sealed by this sealer (tampered, another purpose, another secret) or no longer matches the schema. */
  unseal(text: string | undefined): T | null;
}

export function createSealer<T>(secret: string, purpose: string, schema: z.ZodMiniType<T>): Sealer<T> {
  const key = Buffer.from(hkdfSync("sha256", secret, "tandem-sealed-value", purpose, 32));
  return {
    seal(value) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
      return Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url");
    },
    unseal(text) {
      if (!text || text.length > 8192) return null;
      try {
        const raw = Buffer.from(text, "base64url");
        if (raw.length <= IV_BYTES + TAG_BYTES) return null;
        const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
        decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
        const plain = Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString("utf8");
        const parsed = z.safeParse(schema, JSON.parse(plain));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
  };
}
