import { parentPort } from "node:worker_threads";
import * as z from "zod/mini";
import { takeIn } from "./answer-intake.ts";
import { isSharedRoute } from "./cache-policy.ts";

// The intake thread's worker (intake-thread.ts): takes in each body it is
// sent and sends back the bytes to keep, never the parsed objects (copying
// those back would cost what the thread saves).

const request = z.object({ id: z.number(), route: z.string(), body: z.custom<Uint8Array>((value) => value instanceof Uint8Array) });
const decoder = new TextDecoder();

parentPort?.on("message", (message: unknown) => {
  const parsed = z.safeParse(request, message);
  if (!parsed.success) return;
  const { id, route, body } = parsed.data;
  if (!isSharedRoute(route)) {
    parentPort?.postMessage({ id, result: { kind: "contract_violation", detail: `${route} is not a shared route`, traceId: null } });
    return;
  }
  const result = takeIn(route, decoder.decode(body));
  parentPort?.postMessage({ id, result }, result.kind === "ok" ? [result.body.buffer] : []);
});
