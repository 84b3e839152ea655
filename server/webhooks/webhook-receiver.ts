import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import * as z from "zod/mini";
import { webhookEnvelope } from "#contract/clinic-api/events.ts";
import type { Logger } from "../logger.ts";
import type { WebhookInboxRepository } from "../store/store.ts";
import { verifyWebhook } from "./verify-webhook.ts";

// POST /webhooks/clinic (DESIGN.md "Webhooks"; seed 001 "Delivery
// guarantees"): verify on the raw body, store under the unique hook-id before
// answering 2xx, answer fast, process after. A duplicate is answered 2xx and
// not stored again. A refused request (its signature) leaves no trace. A
// verified delivery is never refused, or the service would retry and then
// drop it: one the BFF cannot read is kept as a dead letter with the reason
// (counted in /healthz) and answered 2xx.

/** Seed 001 shows no maximum; event payloads are small. */
export const MAX_WEBHOOK_BODY_BYTES = 256 * 1024;
/** Event payloads are shallow; a deeper body would overflow the stack where the store serializes it. */
export const MAX_WEBHOOK_JSON_DEPTH = 32;

// PostgreSQL's jsonb refuses NUL and unpaired surrogates (`\u0000`, `\ud800`
// escapes), so a signed event holding them could never be stored (a 500 the
// sender retries forever): they are kept as U+FFFD, as a UTF-8 decoder reads them.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const storableText = (text: string) => text.replaceAll("\u0000", "\uFFFD").replace(LONE_SURROGATE, "\uFFFD");

function withinDepth(value: unknown, levels: number): boolean {
  if (value === null || typeof value !== "object") return true;
  if (levels === 0) return false;
  return Object.values(value).every((item) => withinDepth(item, levels - 1));
}

function storable(value: unknown): unknown {
  if (typeof value === "string") return storableText(value);
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(storable);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [storableText(key), storable(item)]));
}

export function createWebhookReceiver(deps: { inbox: WebhookInboxRepository; secrets: readonly string[]; logger: Logger; now?: () => number; onStored: () => void }): Hono {
  const app = new Hono();
  app.post(
    "/",
    bodyLimit({ maxSize: MAX_WEBHOOK_BODY_BYTES, onError: (c) => c.json({ code: "payload_too_large", message: `webhook body must be at most ${MAX_WEBHOOK_BODY_BYTES} bytes` }, 413) }),
    async (c) => {
      const rawBody = await c.req.text();
      const verification = verifyWebhook(rawBody, c.req.raw.headers, deps.secrets, deps.now);
      if (!verification.ok) {
        deps.logger.warn({ reason: verification.reason }, "webhook refused");
        return c.json({ code: verification.status === 401 ? "invalid_signature" : "bad_request", message: verification.reason }, verification.status);
      }
      const receivedAt = (deps.now ?? Date.now)();
      const keepAsDeadLetter = async (reason: string, readable: unknown) => {
        const type = z.safeParse(z.object({ type: z.string() }), readable);
        const eventType = type.success ? storableText(type.data.type).slice(0, 200) : "unreadable";
        // The raw text, not the parsed value: a body too deep to parse safely is stored as the string it arrived as.
        const stored = await deps.inbox.insertDeadLetter({ hookId: verification.messageId, eventType, payload: { rawBody: storableText(rawBody) }, receivedAt, reason });
        deps.logger.warn({ hookId: verification.messageId, eventType, reason }, "verified webhook kept as a dead letter");
        return c.json({ received: true, duplicate: !stored, deadLetter: true });
      };
      let json: unknown;
      try {
        json = JSON.parse(rawBody);
      } catch {
        return keepAsDeadLetter("the body is not JSON", null);
      }
      if (!withinDepth(json, MAX_WEBHOOK_JSON_DEPTH)) return keepAsDeadLetter(`the body nests more than ${MAX_WEBHOOK_JSON_DEPTH} levels deep`, null);
      const envelope = z.safeParse(webhookEnvelope, storable(json));
      if (!envelope.success) return keepAsDeadLetter(`the body is not an envelope {type, data, timestamp}: ${z.prettifyError(envelope.error)}`, json);
      const stored = await deps.inbox.insert({
        hookId: verification.messageId,
        eventType: envelope.data.type,
        payload: envelope.data,
        receivedAt,
      });
      if (stored) deps.onStored();
      return c.json({ received: true, duplicate: !stored });
    },
  );
  return app;
}
