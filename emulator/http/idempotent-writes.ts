import type { MiddlewareHandler } from "hono";
import { ServiceError } from "./service-error.ts";
import type { ServiceEnv } from "./env.ts";

// The assumed `Idempotency-Key` contract of the two creating writes
// (docs/assumed-contracts.md "Idempotency-Key"; the seeds are silent): the
// same key and the same body within 24 hours answer the first answer again,
// with `Idempotent-Replayed: true`, and the write is not carried out twice; the
// same key with another body is refused with 422 naming the key. The key is
// scoped to the organization and the route. Answers of 5xx are not kept (the
// write may not have happened; the next try carries it out).

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
const IDEMPOTENT_ROUTES: readonly { method: string; path: RegExp }[] = [
  { method: "POST", path: /^\/v2\/tasks\/?$/ },
  { method: "POST", path: /^\/v4\/schedule\/holds\/?$/ },
];
const KEY_FORM = /^[\x21-\x7e]{1,255}$/;

export function idempotentWrites(now: () => number): MiddlewareHandler<ServiceEnv> {
  return async (c, next) => {
    const key = c.req.header("idempotency-key");
    if (key === undefined || !IDEMPOTENT_ROUTES.some((route) => route.method === c.req.method && route.path.test(c.req.path))) return next();
    if (!KEY_FORM.test(key)) throw ServiceError.of("bad_request", "Idempotency-Key must be 1 to 255 visible ASCII characters");
    const answers = c.get("org").idempotentAnswers;
    const scope = `${c.req.method} ${c.req.path.replace(/\/$/, "")} ${key}`;
    const body = await c.req.text();
    const at = now();
    // Oldest first: forget the answers past the window.
    for (const [oldScope, kept] of answers) {
      if (at - kept.atMs < IDEMPOTENCY_WINDOW_MS) break;
      answers.delete(oldScope);
    }
    const earlier = answers.get(scope);
    if (earlier) {
      if (earlier.body !== body) throw new ServiceError(422, "bad_request", `Idempotency-Key ${key} was already used with a different body`);
      return c.newResponse(earlier.answer, earlier.status as 200, { "content-type": "application/json", "idempotent-replayed": "true" });
    }
    await next();
    if (c.res.status < 500) answers.set(scope, { body, status: c.res.status, answer: await c.res.clone().text(), atMs: at });
  };
}
