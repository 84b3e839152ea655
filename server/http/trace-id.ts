import { displayTraceId, newTraceId as newTraceHex } from "../../contract/app-api/trace-context.ts";

/** A trace id for an answer given outside a request's trace (the lifecycle gate's refusals), in the form of every other. */
export const newTraceId = (): string => displayTraceId({ traceId: newTraceHex() });
