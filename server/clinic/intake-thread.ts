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
// keeping the process alive, given one answer at a time; should it die or
// hang, the answer it had fails and the next starts another. A failed answer
// is not taken in on the event loop
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

/** An answer given to the thread, until it is settled. */
interface Intake {
  id: number;
  route: SharedRoute;
  body: Uint8Array<ArrayBuffer>;
  resolve(result: IntakeResult): void;
  reject(error: IntakeThreadError): void;
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
  /**
   * The answer the worker is taking in, and those waiting their turn: the
   * worker is given one at a time, so the reply timeout measures the worker,
   * not the queue (20 large answers at once took it 20-30 s in all, and with
   * every one timed from its arrival most of them failed), and a worker that
   * dies or hangs loses only the answer it had.
   */
  private active: (Intake & { timer: ReturnType<typeof setTimeout> }) | null = null;
  private readonly waiting: Intake[] = [];
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
    return new Promise<IntakeResult>((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, route, body, resolve, reject });
      this.sendNext();
    });
  }

  close(): void {
    this.cancelIdleStop();
    this.stopWorker();
    const error = new IntakeThreadError("the intake thread was closed", "failed");
    if (this.active !== null) this.settle(this.active.id, { error });
    for (const intake of this.waiting.splice(0)) intake.reject(error);
  }

  /** Gives the worker the next answer waiting, once it has none; with none waiting, lets it go idle. */
  private sendNext(): void {
    if (this.active !== null) return;
    const next = this.waiting.shift();
    if (next === undefined) {
      this.stopWhenIdle();
      return;
    }
    const worker = this.workerNow();
    // A worker that does not answer is stopped: the answers after it get a new one.
    const timer = setTimeout(() => {
      this.stopWorker();
      this.settle(next.id, { error: new IntakeThreadError(`the intake thread did not answer in ${REPLY_TIMEOUT_MS} ms`, "timeout") });
    }, REPLY_TIMEOUT_MS);
    timer.unref();
    this.active = { ...next, timer };
    const isWholeBuffer = next.body.byteOffset === 0 && next.body.byteLength === next.body.buffer.byteLength;
    worker.postMessage({ id: next.id, route: next.route, body: next.body }, isWholeBuffer ? [next.body.buffer] : []);
  }

  /** Settles the answer the worker has, when it is `id`, and gives it the next. */
  private settle(id: number, outcome: { result: IntakeResult } | { error: IntakeThreadError }): void {
    const active = this.active;
    if (active === null || active.id !== id) return;
    clearTimeout(active.timer);
    this.active = null;
    if ("result" in outcome) active.resolve(outcome.result);
    else active.reject(outcome.error);
    this.sendNext();
  }

  /** With nothing to take in, the worker is stopped after `idleStopMs` unless another answer comes first. */
  private stopWhenIdle(): void {
    if (this.active !== null || this.waiting.length > 0 || this.worker === null || this.idleTimer !== null) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.active === null && this.waiting.length === 0) this.stopWorker();
    }, this.idleStopMs);
    this.idleTimer.unref();
  }

  private cancelIdleStop(): void {
    if (this.idleTimer === null) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private stopWorker(): void {
    const worker = this.worker;
    this.worker = null;
    void worker?.terminate();
  }

  private workerNow(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker(this.lowPriority, this.maxOldGenerationSizeMb);
    worker.unref();
    worker.on("message", (message: unknown) => {
      const parsed = z.safeParse(reply, message);
      const id = parsed.success ? parsed.data.id : z.safeParse(z.object({ id: z.number() }), message).data?.id;
      if (id === undefined) return;
      this.settle(id, parsed.success ? { result: parsed.data.result } : { error: new IntakeThreadError("the intake thread answered something else than an intake result", "failed") });
    });
    const lost = (error: IntakeThreadError) => {
      if (this.worker !== worker) return;
      this.worker = null;
      // The answer it had is lost with it; those waiting go to a new worker.
      if (this.active !== null) this.settle(this.active.id, { error });
    };
    // "Worker terminated due to reaching memory limit: JS heap out of memory" comes this way.
    worker.on("error", (error) => lost(new IntakeThreadError(`the intake thread failed: ${error.message}`, "failed")));
    worker.on("exit", (code) => lost(new IntakeThreadError(`the intake thread exited (${code})`, "failed")));
    this.worker = worker;
    return worker;
  }
}
