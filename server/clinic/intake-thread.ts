import { createRequire } from "node:module";
import { extname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import * as z from "zod/mini";
import type { IntakeResult } from "./answer-intake.ts";
import type { IntakeWorkerData } from "./intake-worker.ts";
import type { SharedRoute } from "./cache-policy.ts";

// The thread that takes in shared answers off the event loop
// (answer-intake.ts says why). One worker, started on first use and not
// keeping the process alive; should it die, the calls it had fail and the
// next call starts another. A failed call is not taken in on the event loop
// instead: an answer too large for the thread's heap would stop the whole
// process there (issue 34); the client logs and counts it.
// A worker costs about 15 MB of RSS, so one left idle for `idleStopMs` is
// stopped, and started again when a large answer next arrives. A thread for
// answers nobody waits for (refreshes ahead) runs below the event loop's
// priority (thread-priority.ts).

/**
 * The worker's heap. A 1 MB slot search parses to several MB of objects, all
 * live until the answer is serialized: with an 8 MB young generation they
 * were copied and promoted before they died, and collecting them took a
 * quarter of the thread's CPU under the 1,000-user load. With 32 MB the
 * usual answers (0.4-1.3 MB) die young: an intake of them took 18-21 ms of
 * CPU instead of 28-36 ms, for about 25 MB more RSS while the thread runs
 * (docs/deploy.md "Memory").
 */
const WORKER_HEAP_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 32 };

/** Default `idleStopMs`: under load answers arrive every few seconds, so the worker stops only when the load is gone. */
const IDLE_STOP_MS = 60_000;

/** An answer the thread has not handed back by then fails (a thread that hangs must not hang reads). */
export const REPLY_TIMEOUT_MS = 5_000;

const bytes = z.custom<Uint8Array<ArrayBuffer>>((value) => value instanceof Uint8Array);
const reply = z.object({
  id: z.number(),
  result: z.union([
    z.object({ kind: z.literal("ok"), body: bytes, encoding: z.enum(["gzip", "identity"]), meta: z.unknown() }),
    z.object({ kind: z.literal("not_json") }),
    z.object({ kind: z.literal("contract_violation"), detail: z.string(), traceId: z.nullable(z.string()) }),
  ]),
});

/** Why the thread did not take an answer in: no reply within {@link REPLY_TIMEOUT_MS}, or the worker failed (died, was closed, answered something else). */
export class IntakeThreadError extends Error {
  override readonly name = "IntakeThreadError";

  constructor(
    message: string,
    readonly reason: "timeout" | "failed",
  ) {
    super(message);
  }
}

interface Pending {
  resolve(result: IntakeResult): void;
  reject(error: Error): void;
}

/**
 * Runs the worker's own module: compiled JavaScript in production; in
 * development and tests, the TypeScript source through tsx's API (a worker
 * does not inherit the loader the main thread was started with).
 */
function startWorker(lowPriority: boolean, maxOldGenerationSizeMb: number): Worker {
  const extension = extname(fileURLToPath(import.meta.url));
  const script = new URL(`./intake-worker${extension}`, import.meta.url);
  const resourceLimits = { ...WORKER_HEAP_LIMITS, maxOldGenerationSizeMb };
  const workerData: IntakeWorkerData = { lowPriority };
  if (extension !== ".ts") return new Worker(script, { resourceLimits, workerData });
  // The ESM build of tsx's API, beside the CommonJS one `require` finds.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm/api").replace(/\.cjs$/, ".mjs"));
  const bootstrap = `import(${JSON.stringify(tsx.href)}).then(({ tsImport }) => tsImport(${JSON.stringify(script.href)}, ${JSON.stringify(import.meta.url)}));`;
  return new Worker(bootstrap, { eval: true, resourceLimits, workerData });
}

export interface IntakeThreadOptions {
  /** A worker with nothing to do for this long is stopped (default 60 s). */
  idleStopMs?: number;
  /** Run below the event loop's CPU priority (nice 10 on Linux): for answers no user waits for. */
  lowPriority?: boolean;
  /** The worker's old generation (default 96 MB); an answer that needs more fails. */
  maxOldGenerationSizeMb?: number;
}

export class IntakeThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly idleStopMs: number;
  private readonly lowPriority: boolean;
  private readonly maxOldGenerationSizeMb: number;

  constructor(options: IntakeThreadOptions = {}) {
    this.idleStopMs = options.idleStopMs ?? IDLE_STOP_MS;
    this.lowPriority = options.lowPriority ?? false;
    this.maxOldGenerationSizeMb = options.maxOldGenerationSizeMb ?? WORKER_HEAP_LIMITS.maxOldGenerationSizeMb;
  }

  /** Whether a worker is running now (it is started by `takeIn` and stopped when idle or closed). */
  get running(): boolean {
    return this.worker !== null;
  }

  /**
   * Takes in a 2xx body of `route`. A body that is a whole buffer of its own
   * (as bounded-body.ts reads them) is handed over, not copied: the caller
   * no longer has it, and fewer copies of large answers wait for the thread.
   */
  takeIn(route: SharedRoute, body: Uint8Array<ArrayBuffer>): Promise<IntakeResult> {
    this.cancelIdleStop();
    const worker = this.workerNow();
    const id = this.nextId++;
    return new Promise<IntakeResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.stopWhenIdle();
        reject(new IntakeThreadError(`the intake thread did not answer in ${REPLY_TIMEOUT_MS} ms`, "timeout"));
      }, REPLY_TIMEOUT_MS);
      timer.unref();
      const settle = () => {
        clearTimeout(timer);
        this.stopWhenIdle();
      };
      this.pending.set(id, {
        resolve: (result) => {
          settle();
          resolve(result);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      const isWholeBuffer = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength;
      worker.postMessage({ id, route, body }, isWholeBuffer ? [body.buffer] : []);
    });
  }

  close(): void {
    this.cancelIdleStop();
    const worker = this.worker;
    this.worker = null;
    this.failAll(new IntakeThreadError("the intake thread was closed", "failed"));
    void worker?.terminate();
  }

  /** Called as each answer is settled: with nothing left pending, the worker is stopped after `idleStopMs` unless another answer comes first. */
  private stopWhenIdle(): void {
    if (this.pending.size > 0 || this.worker === null || this.idleTimer !== null) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.pending.size > 0) return;
      const worker = this.worker;
      this.worker = null;
      void worker?.terminate();
    }, this.idleStopMs);
    this.idleTimer.unref();
  }

  private cancelIdleStop(): void {
    if (this.idleTimer === null) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private workerNow(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker(this.lowPriority, this.maxOldGenerationSizeMb);
    worker.unref();
    worker.on("message", (message: unknown) => {
      const parsed = z.safeParse(reply, message);
      const id = parsed.success ? parsed.data.id : z.safeParse(z.object({ id: z.number() }), message).data?.id;
      const pending = id === undefined ? undefined : this.pending.get(id);
      if (id === undefined || pending === undefined) return;
      this.pending.delete(id);
      if (parsed.success) pending.resolve(parsed.data.result);
      else pending.reject(new IntakeThreadError("the intake thread answered something else than an intake result", "failed"));
    });
    const lost = (error: IntakeThreadError) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.failAll(error);
    };
    // "Worker terminated due to reaching memory limit: JS heap out of memory" comes this way.
    worker.on("error", (error) => lost(new IntakeThreadError(`the intake thread failed: ${error.message}`, "failed")));
    worker.on("exit", (code) => lost(new IntakeThreadError(`the intake thread exited (${code})`, "failed")));
    this.worker = worker;
    return worker;
  }

  private failAll(error: IntakeThreadError): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
