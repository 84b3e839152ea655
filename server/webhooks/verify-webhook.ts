import { Webhook, WebhookVerificationError } from "standardwebhooks";

// Seed 001 "Signature verification": Standard Webhooks over the raw body,
// several signatures allowed (rotation), 5 minutes of tolerance. The library
// reads only `webhook-*` headers, so a provider's `svix-*` are renamed first.

export type WebhookVerification = { ok: true; messageId: string } | { ok: false; status: 400 | 401; reason: string };

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

/** Verifies against each of our secrets (ours can rotate too); any match accepts. */
export function verifyWebhook(rawBody: string, headers: Headers, secrets: readonly string[]): WebhookVerification {
  const normalized = normalizeWebhookHeaders(headers);
  const messageId = normalized["webhook-id"];
  if (!messageId || !normalized["webhook-timestamp"] || !normalized["webhook-signature"]) {
    return { ok: false, status: 400, reason: "webhook-id, webhook-timestamp and webhook-signature headers are required" };
  }
  let reason = "no signature matches";
  for (const secret of secrets) {
    try {
      new Webhook(secret).verify(rawBody, normalized);
      return { ok: true, messageId };
    } catch (error) {
      reason = error instanceof WebhookVerificationError ? error.message : "the signature could not be verified";
    }
  }
  return { ok: false, status: 401, reason };
}
