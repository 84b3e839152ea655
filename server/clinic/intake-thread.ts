import { createRequire } from "node:module";
import { extname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import * as z from "zod/mini";
import type { IntakeResult } from "./answer-intake.ts";
import type { SharedRoute } from "./cache-policy.ts";

// A worker thread that takes in shared answers off the event loop
// (answer-intake.ts; it earned its place: ADR 0029). Started on first use,
// not keeping the process alive, stopped when idle (it costs about 15 MB of
// RSS), given one answer at a time: the reply timeout then measures the
// worker, not the queue (20 large answers at once took it 20-30 s), and a
// worker that dies or hangs loses only the answer it had; the next starts
// another. Not piscina (tried 2026-12-02): when its worker died starting
// up, the answer waiting for it was not failed but waited out the timeout,
// and the death came as an 'error' event that, unheard, stops the process.

/**
 * With an 8 MB young generation, a 1 MB slot search's objects were promoted
 * before they died and collecting them took a quarter of the thread's CPU;
 * with 32 MB an intake took 18-21 ms instead of 28-36 ms, for about 25 MB
 * more RSS while it runs (docs/deploy.md "Memory").
 */
const WORKER_HEAP_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 32 };

/** An answer not handed back by then fails: a thread that hangs must not hang reads. */
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

export class IntakeThreadError extends Error {
  override readonly name = "IntakeThreadError";

  constructor(
    message: string,
    readonly reason: "timeout" | "failed",
  ) {
    super(message);
  }
}

/** Compiled JavaScript in production; in development and tests the TypeScript source through tsx's API (a worker does not inherit the main thread's loader). */
function startWorker(maxOldGenerationSizeMb: number): Worker {
  const extension = extname(fileURLToPath(import.meta.url));
  const script = new URL(`./intake-worker${extension}`, import.meta.url);
  const options = { resourceLimits: { ...WORKER_HEAP_LIMITS, maxOldGenerationSizeMb } };
  if (extension !== ".ts") return new Worker(script, options);
  // The ESM build of tsx's API, beside the CommonJS one `require` finds.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm/api").replace(/\.cjs$/, ".mjs"));
  const bootstrap = `import(${JSON.stringify(tsx.href)}).then(({ tsImport }) => tsImport(${JSON.stringify(script.href)}, ${JSON.stringify(import.meta.url)}));`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/** An answer given to the thread, until it is settled. */
interface Intake {
  id: number;
  route: SharedRoute;
  body: Uint8Array<ArrayBuffer>;
  resolve(result: IntakeResult): void;
  reject(error: IntakeThreadError): void;
}

export class IntakeThread {
  private worker: Worker | null = null;
  private active: (Intake & { timer: ReturnType<typeof setTimeout> }) | null = null;
  private readonly waiting: Intake[] = [];
  private nextId = 1;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly options: {
      /** A worker with nothing to do this long is stopped (default 60 s: under load answers come every few seconds). */
      idleStopMs?: number;
      /** The worker's old generation (default 96 MB); an answer that needs more fails. */
      maxOldGenerationSizeMb?: number;
    } = {},
  ) {}

  get running(): boolean {
    return this.worker !== null;
  }

  /** A body that is a whole buffer of its own (bounded-body.ts) is handed over, not copied. */
  takeIn(route: SharedRoute, body: Uint8Array<ArrayBuffer>): Promise<IntakeResult> {
    clearTimeout(this.idleTimer);
    return new Promise<IntakeResult>((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, route, body, resolve, reject });
      this.sendNext();
    });
  }

  close(): void {
    clearTimeout(this.idleTimer);
    this.stopWorker();
    const error = new IntakeThreadError("the intake thread was closed", "failed");
    if (this.active !== null) this.settle(this.active.id, { error });
    for (const intake of this.waiting.splice(0)) intake.reject(error);
  }

  /** Gives the worker the next answer waiting once it has none; with none waiting, it is stopped when left idle. */
  private sendNext(): void {
    if (this.active !== null) return;
    const next = this.waiting.shift();
    if (next === undefined) {
      clearTimeout(this.idleTimer);
      if (this.worker !== null) this.idleTimer = setTimeout(() => this.stopWorker(), this.options.idleStopMs ?? 60_000).unref();
      return;
    }
    const worker = this.workerNow();
    const timer = setTimeout(() => {
      this.stopWorker();
      this.settle(next.id, { error: new IntakeThreadError(`the intake thread did not answer in ${REPLY_TIMEOUT_MS} ms`, "timeout") });
    }, REPLY_TIMEOUT_MS).unref();
    this.active = { ...next, timer };
    const isWholeBuffer = next.body.byteOffset === 0 && next.body.byteLength === next.body.buffer.byteLength;
    worker.postMessage({ id: next.id, route: next.route, body: next.body }, isWholeBuffer ? [next.body.buffer] : []);
  }

  private settle(id: number, outcome: { result: IntakeResult } | { error: IntakeThreadError }): void {
    const active = this.active;
    if (active === null || active.id !== id) return;
    clearTimeout(active.timer);
    this.active = null;
    if ("result" in outcome) active.resolve(outcome.result);
    else active.reject(outcome.error);
    this.sendNext();
  }

  private stopWorker(): void {
    const worker = this.worker;
    this.worker = null;
    void worker?.terminate();
  }

  private workerNow(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker(this.options.maxOldGenerationSizeMb ?? WORKER_HEAP_LIMITS.maxOldGenerationSizeMb);
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
