import { timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";

// Seed 001 "Signature verification": Standard Webhooks over the raw body,
// several signatures allowed (rotation), 5 minutes of tolerance. The library
// reads only `webhook-*` headers, so a provider's `svix-*` are renamed first.
// The library's `verify` judges the timestamp by `Date.now()`; the tolerance is
// checked here on the BFF's own clock (injected, so a sandbox pinned to an
// instant verifies what its emulator signs), and the library's `sign` computes
// the HMAC that each offered signature is compared with.

export type WebhookVerification = { ok: true; messageId: string } | { ok: false; status: 400 | 401; reason: string };

const TOLERANCE_SECONDS = 5 * 60;

export function normalizeWebhookHeaders(headers: Headers): Record<string, string> {
  const normalized: Record<string, string> = {};
  headers.forEach((value, name) => {
    const lower = name.toLowerCase();
    const renamed = lower.startsWith("svix-") ? `webhook-${lower.slice("svix-".length)}` : lower;
    // An explicit webhook-* header wins over its svix-* twin.
    if (!(renamed in normalized) || lower === renamed) normalized[renamed] = value;
  });
  return normalized;
}

const sameText = (a: string, b: string) => {
  const [left, right] = [Buffer.from(a), Buffer.from(b)];
  return left.length === right.length && timingSafeEqual(left, right);
};

/** Verifies against each of our secrets (ours can rotate too); any match accepts. */
export function verifyWebhook(rawBody: string, headers: Headers, secrets: readonly string[], now: () => number = Date.now): WebhookVerification {
  const normalized = normalizeWebhookHeaders(headers);
  const messageId = normalized["webhook-id"];
  const timestampHeader = normalized["webhook-timestamp"];
  const signatureHeader = normalized["webhook-signature"];
  if (!messageId || !timestampHeader || !signatureHeader) {
    return { ok: false, status: 400, reason: "webhook-id, webhook-timestamp and webhook-signature headers are required" };
  }
  if (!/^\d{1,12}$/.test(timestampHeader)) return { ok: false, status: 400, reason: "webhook-timestamp must be Unix seconds" };
  const timestampSeconds = Number(timestampHeader);
  const nowSeconds = Math.floor(now() / 1000);
  if (nowSeconds - timestampSeconds > TOLERANCE_SECONDS) return { ok: false, status: 401, reason: "Message timestamp too old" };
  if (timestampSeconds - nowSeconds > TOLERANCE_SECONDS) return { ok: false, status: 401, reason: "Message timestamp too new" };

  const offered = signatureHeader
    .split(" ")
    .map((versioned) => versioned.split(","))
    .filter(([version, signature]) => version === "v1" && signature !== undefined)
    .map(([, signature]) => signature ?? "");
  for (const secret of secrets) {
    let expected: string;
    try {
      expected = new Webhook(secret).sign(messageId, new Date(timestampSeconds * 1000), rawBody).split(",")[1] ?? "";
    } catch {
      continue;
    }
    if (offered.some((signature) => sameText(signature, expected))) return { ok: true, messageId };
  }
  return { ok: false, status: 401, reason: "No matching signature found" };
}
