import { getHeapStatistics } from "node:v8";

// docs/deploy.md "Memory": without a heap limit V8 sizes one from the
// machine's memory and lets the heap grow towards it under load, far past
// what the BFF keeps live. The BFF cannot set its own limit once running, so
// it says at start-up when it was started without one.

/** Above this the process was not given `--max-old-space-size` as docs/deploy.md says. */
export const UNSET_HEAP_LIMIT_MB = 512;

/** The warning to log for a heap limit of `limitBytes`, or null when it was set. */
export function heapLimitWarning(limitBytes = getHeapStatistics().heap_size_limit): string | null {
  const limitMb = Math.round(limitBytes / 1024 / 1024);
  if (limitMb <= UNSET_HEAP_LIMIT_MB) return null;
  return `the heap may grow to ${limitMb} MB: run the BFF as docs/deploy.md says (node --max-semi-space-size=4 --max-old-space-size=128), or its memory grows far past what it keeps live`;
}
