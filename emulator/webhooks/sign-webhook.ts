import { Webhook } from "standardwebhooks";

export type WebhookHeaderStyle = "standard" | "prefixed";

/**
 * Standard Webhooks signature header value: one `v1,<base64 HMAC-SHA256>` per
 * secret, space-separated. The seed ("Signature verification") says the
 * header can hold several signatures during a secret rotation and any one
 * matching is enough, so each active secret signs.
 */
export function signWebhook(
  secrets: readonly string[],
  messageId: string,
  timestampSeconds: number,
  payload: string,
): string {
  if (secrets.length === 0) throw new Error("no webhook signing secret configured");
  const at = new Date(Math.floor(timestampSeconds) * 1000);
  return secrets.map((secret) => new Webhook(secret).sign(messageId, at, payload)).join(" ");
}

/**
 * The three signature headers. "prefixed" is the delivery provider's own
 * prefix (DESIGN.md: `svix-*`); the seed tells receivers to expect either
 * that or the unprefixed `webhook-*` names.
 */
export function webhookHeaders(
  style: WebhookHeaderStyle,
  messageId: string,
  timestampSeconds: number,
  signature: string,
): Record<string, string> {
  const prefix = style === "prefixed" ? "svix" : "webhook";
  return {
    [`${prefix}-id`]: messageId,
    [`${prefix}-timestamp`]: String(Math.floor(timestampSeconds)),
    [`${prefix}-signature`]: signature,
  };
}
