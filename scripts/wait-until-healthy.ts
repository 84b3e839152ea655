import type { ChildProcess } from "node:child_process";

/**
 * Polls `url` until it answers 2xx (the emulator's and the BFF's /healthz).
 * With `child`, fails at once when that process exits, with the tail of its
 * output from `log`. Used by `npm start`, the e2e setup, the benchmarks and
 * the two-process test.
 */
export async function waitUntilHealthy(url: string, options: { child?: ChildProcess; log?: () => string; timeoutMs?: number } = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const log = () => (options.log ? `\n${options.log()}` : "");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (options.child && options.child.exitCode !== null) throw new Error(`${url}: the process exited (${options.child.exitCode})${log()}`);
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up within ${timeoutMs / 1000} s${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
