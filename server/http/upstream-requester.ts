import { AsyncLocalStorage } from "node:async_hooks";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env.ts";

// Whose request a call to the service is made for (ADR
// 0017): the upstream client's per-user limit counts by it. Set for the rest
// of an /api request once its session is verified, so every route's calls
// are attributed without each passing the user along; calls made outside a
// request (installations, webhook processing) belong to no one.

const requesterScope = new AsyncLocalStorage<string>();

/** `organization|user` of the /api request being served, if any. */
export function currentRequester(): string | undefined {
  return requesterScope.getStore();
}

/** Mounted after the host-session middleware. */
export function attributeUpstreamCalls(): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const session = c.get("session");
    return requesterScope.run(`${session.organizationId}|${session.userId}`, next);
  };
}
