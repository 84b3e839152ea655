import { createHmac, timingSafeEqual } from "node:crypto";
import type { Clock } from "../../clock.ts";

// Time-limited download URLs of chart documents (seed 001: the URL expires,
// so it is read fresh from the documents endpoint and never sent in events).
// The sandbox serves the file at `/_sandbox/documents/{id}/download`, signed
// with an HMAC of the id and the expiry.

export interface DownloadLinks {
  /** A URL valid for the configured lifetime from the emulator's now. */
  urlFor(documentId: string): string;
  /** Whether a presented expiry and signature are genuine and not expired. */
  verify(documentId: string, expires: string | undefined, signature: string | undefined): "valid" | "expired" | "invalid";
}

export function createDownloadLinks(options: { publicUrl: string; clock: Clock; lifetimeSeconds: number; secret: string }): DownloadLinks {
  const base = options.publicUrl.replace(/\/+$/, "");
  const sign = (documentId: string, expires: number) => createHmac("sha256", options.secret).update(`${documentId}.${expires}`).digest("base64url");
  return {
    urlFor(documentId) {
      const expires = Math.floor(options.clock.now() / 1000) + options.lifetimeSeconds;
      return `${base}/_sandbox/documents/${documentId}/download?expires=${expires}&signature=${sign(documentId, expires)}`;
    },
    verify(documentId, expires, signature) {
      const seconds = Number(expires);
      if (!expires || !/^\d{1,12}$/.test(expires) || !signature) return "invalid";
      const expected = Buffer.from(sign(documentId, seconds));
      const presented = Buffer.from(signature);
      if (expected.length !== presented.length || !timingSafeEqual(expected, presented)) return "invalid";
      return seconds * 1000 < options.clock.now() ? "expired" : "valid";
    },
  };
}
