import { AsyncLocalStorage } from "node:async_hooks";
import type { MiddlewareHandler } from "hono";
import { displayTraceId, formatTraceparent, newSpanId, newTraceContext, parseTraceparent, type TraceContext } from "#contract/app-api/trace-context.ts";
import type { AppEnv } from "./app-env.ts";

// docs/operations.md "Following one request: trace ids": one trace id per request, end to end. A valid W3C
// `traceparent` from the SPA is adopted (an invalid one is ignored, so no
// caller's text reaches a log line); otherwise the BFF starts a trace. The id
// is the error body's `trace_id`, is on every log line written while the
// request is served (the logger reads it from here), and goes on to the
// service in `traceparent` on each call made for the request.

interface RequestTrace {
  /** What logs and error bodies show: `tdm_` and the W3C trace id. */
  traceId: string;
  context: TraceContext;
}

const traceScope = new AsyncLocalStorage<RequestTrace>();

/** Mounted first: everything after it runs in the request's trace. */
export function traceRequests(): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const context = parseTraceparent(c.req.header("traceparent")) ?? newTraceContext();
    const trace = { traceId: displayTraceId(context), context };
    c.set("traceId", trace.traceId);
    return traceScope.run(trace, next);
  };
}

/** The trace id of the request being served, if any. */
export function currentTraceId(): string | undefined {
  return traceScope.getStore()?.traceId;
}

/** `traceparent` for a call to the service made for the current request (a new span of its trace); none outside a request. */
export function upstreamTraceparent(): string | undefined {
  const trace = traceScope.getStore();
  return trace === undefined ? undefined : formatTraceparent({ ...trace.context, parentId: newSpanId() });
}
