import { monitorEventLoopDelay, performance } from "node:perf_hooks";

// How responsive the processes stayed, second by second: the BFF's own
// event-loop delay (prom-client's `nodejs_eventloop_lag_max_seconds`, reset
// at each scrape, so each sample is the worst delay since the last one), and
// the emulator's answer time of its sandbox stats call (it has no metrics;
// the call does no work, so its time is the time the emulator was busy).
// And the load generator's own event-loop delay: it times every answer on
// that loop, so a stall there adds to every answer in flight, whichever
// process gave it. Reported as the worst of each 10 s of the run, to show
// when the tail latency came from a process being busy.

const LAG_MAX = /^nodejs_eventloop_lag_max_seconds(?:\{[^}]*\})? (\S+)$/m;
const REQUEST_TIMEOUT_MS = 15_000;

export class Responsiveness {
  private readonly samples: { at: number; bffLagMs: number[]; emulatorMs: number | null; generatorLagMs: number }[] = [];
  private readonly generatorDelay = monitorEventLoopDelay({ resolution: 10 });

  constructor(
    private readonly metricsUrls: readonly string[],
    private readonly emulatorUrl: string,
  ) {}

  async sample(): Promise<void> {
    const at = performance.now();
    const lag = await Promise.all(
      this.metricsUrls.map(async (url) => {
        try {
          const text = await (await fetch(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })).text();
          return Number(LAG_MAX.exec(text)?.[1] ?? Number.NaN) * 1000;
        } catch {
          return Number.NaN;
        }
      }),
    );
    let emulatorMs: number | null;
    try {
      const started = performance.now();
      await (await fetch(`${this.emulatorUrl}/_sandbox/clock`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })).text();
      emulatorMs = performance.now() - started;
    } catch {
      emulatorMs = null;
    }
    if (this.samples.length === 0) this.generatorDelay.enable();
    const generatorLagMs = this.generatorDelay.max / 1e6;
    this.generatorDelay.reset();
    this.samples.push({ at, bffLagMs: lag, emulatorMs, generatorLagMs });
  }

  stop(): void {
    this.generatorDelay.disable();
  }

  /** Per 10 s from `startedAt`: the worst BFF event-loop delay of each process, and the emulator's slowest answer (ms). */
  by10s(startedAt: number, elapsedMs: number): { bffEventLoopLagMaxMs: number[][]; emulatorAnswerMaxMs: number[]; loadGeneratorEventLoopLagMaxMs: number[] } {
    const windows = Math.ceil(elapsedMs / 10_000);
    const bff = this.metricsUrls.map(() => Array.from({ length: windows }, () => 0));
    const emulator = Array.from({ length: windows }, () => 0);
    const generator = Array.from({ length: windows }, () => 0);
    for (const sample of this.samples) {
      const window = Math.floor((sample.at - startedAt) / 10_000);
      if (window < 0 || window >= windows) continue;
      sample.bffLagMs.forEach((lag, process) => {
        const row = bff[process];
        if (row && Number.isFinite(lag)) row[window] = Math.max(row[window] ?? 0, Math.round(lag));
      });
      if (sample.emulatorMs !== null) emulator[window] = Math.max(emulator[window] ?? 0, Math.round(sample.emulatorMs));
      generator[window] = Math.max(generator[window] ?? 0, Math.round(sample.generatorLagMs));
    }
    return { bffEventLoopLagMaxMs: bff, emulatorAnswerMaxMs: emulator, loadGeneratorEventLoopLagMaxMs: generator };
  }
}
