import { readlinkSync } from "node:fs";
import { constants, setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import * as z from "zod/mini";
import { takeIn } from "./answer-intake.ts";
import { isSharedRoute } from "./cache-policy.ts";

// The intake thread's worker (intake-thread.ts): takes in each body it is
// sent and sends back the bytes to keep, never the parsed objects (copying
// those back would cost what the thread saves).

const request = z.object({ id: z.number(), route: z.string(), body: z.custom<Uint8Array>((value) => value instanceof Uint8Array) });
const decoder = new TextDecoder();

// Linux keeps a nice value per thread: at nice 10 this thread yields the CPU
// to the event loop serving cached reads. Elsewhere it keeps its priority.
if (z.safeParse(z.object({ lowPriority: z.literal(true) }), workerData).success && process.platform === "linux") {
  try {
    // "<pid>/task/<tid>": the kernel's id of this thread.
    setPriority(Number(readlinkSync("/proc/thread-self").split("/").at(-1)), constants.priority.PRIORITY_BELOW_NORMAL);
  } catch {
    // Keeps its priority.
  }
}

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
