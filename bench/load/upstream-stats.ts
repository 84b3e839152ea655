import { performance } from "node:perf_hooks";
import { round } from "../measure.ts";

// Upstream requests as the EMULATOR counted them: its rate limiter's own
// counts per key and organization (`GET /_sandbox/request-stats`), sampled
// every second over the run. The limit there is 1000 per 60 s per key and
// organization (seed 001 "Limits"; DESIGN.md "The emulator").

const REQUEST_TIMEOUT_MS = 15_000;
export const LIMIT_PER_MINUTE = 1000;

interface StatsBucket {
  key: string;
  organizationId: string | null;
  counted: number;
  limited: number;
  peakWindowCount: number;
}

interface StatsSample {
  at: number;
  buckets: StatsBucket[];
}

export interface UpstreamFigures {
  requests: number;
  meanPerMinute: number;
  /** The most requests in any 60 s of the run (from one-second samples); null when the run is shorter. */
  peak60s: number | null;
  /** 429s the emulator answered in the run. */
  http429: number;
  /** The most the emulator counted in one of its fixed windows (since it started: setup included). */
  peakFixedWindow: number;
  /** No 429, and neither the busiest 60 s of the run nor any of the emulator's windows reached the limit. */
  underLimit: boolean;
}

interface Totals {
  counted: number;
  limited: number;
  peak: number;
}

export class UpstreamSampler {
  private readonly samples: StatsSample[] = [];

  constructor(private readonly emulatorUrl: string) {}

  async sample(): Promise<void> {
    const response = await fetch(`${this.emulatorUrl}/_sandbox/request-stats`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`GET /_sandbox/request-stats: ${response.status}`);
    const { buckets } = (await response.json()) as { buckets: StatsBucket[] };
    this.samples.push({ at: performance.now(), buckets });
  }

  /** Per group (an organization, or the key): counts between the first and the last sample, and the busiest 60 s. */
  figures(groupOf: (bucket: StatsBucket) => string): Record<string, UpstreamFigures> {
    const samples = [...this.samples].sort((a, b) => a.at - b.at);
    const first = samples[0];
    const last = samples.at(-1);
    if (!first || !last || last.at <= first.at) return {};
    const minutes = (last.at - first.at) / 60_000;
    const totals = (sample: StatsSample) => {
      const byGroup = new Map<string, Totals>();
      for (const bucket of sample.buckets) {
        const group = groupOf(bucket);
        const entry = byGroup.get(group) ?? { counted: 0, limited: 0, peak: 0 };
        entry.counted += bucket.counted;
        entry.limited += bucket.limited;
        entry.peak = Math.max(entry.peak, bucket.peakWindowCount);
        byGroup.set(group, entry);
      }
      return byGroup;
    };
    const series = samples.map((sample) => ({ at: sample.at, totals: totals(sample) }));
    const firstTotals = series[0]?.totals ?? new Map<string, Totals>();
    const lastTotals = series.at(-1)?.totals ?? new Map<string, Totals>();
    const result: Record<string, UpstreamFigures> = {};
    for (const [group, end] of lastTotals) {
      const start = firstTotals.get(group) ?? { counted: 0, limited: 0, peak: 0 };
      const requests = end.counted - start.counted;
      // A bucket the run did not touch (the BFF's start-up installations list, without an organization).
      if (requests === 0 && end.limited === start.limited) continue;
      let peak60s: number | null = null;
      for (let i = 0, j = 0; i < series.length; i += 1) {
        const from = series[i];
        if (!from) break;
        while (j < series.length && (series[j]?.at ?? 0) - from.at < 59_500) j += 1;
        const to = series[j];
        if (!to) break;
        const count = (to.totals.get(group)?.counted ?? 0) - (from.totals.get(group)?.counted ?? 0);
        peak60s = Math.max(peak60s ?? 0, count);
      }
      const http429 = end.limited - start.limited;
      result[group] = {
        requests,
        meanPerMinute: round(requests / minutes, 1),
        peak60s,
        http429,
        peakFixedWindow: end.peak,
        underLimit: http429 === 0 && (peak60s ?? requests) < LIMIT_PER_MINUTE && end.peak < LIMIT_PER_MINUTE,
      };
    }
    return result;
  }
}

const LABEL = /(\w+)="([^"]*)"/g;
/** A histogram bucket bound of the BFF's duration histograms (upstream-metrics.ts, http-metrics.ts): answered within 100 ms. */
const WITHIN_BOUND = "0.1";

export interface DurationCounts {
  count: number;
  /** Of them, answered within 100 ms (the BFF's own p99 target: a user's request that waits on a slower one misses it). */
  within100Ms: number;
}

/** One BFF process's metrics, as Prometheus text. */
async function metricsText(url: string): Promise<string> {
  const response = await fetch(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return response.text();
}

/** A duration histogram of the BFF processes' metrics, by method and route template, summed over the processes and status classes. */
async function within100MsByRoute(metricsUrls: readonly string[], histogram: string): Promise<Map<string, DurationCounts>> {
  const series = new RegExp(`^${histogram}_(count|bucket)\\{(.*)\\} (\\d+(?:\\.\\d+)?)$`, "gm");
  const counts = new Map<string, DurationCounts>();
  for (const url of metricsUrls) {
    for (const [, kind = "", labels = "", value = "0"] of (await metricsText(url)).matchAll(series)) {
      const named = new Map([...labels.matchAll(LABEL)].map(([, name = "", text = ""]) => [name, text]));
      if (kind === "bucket" && named.get("le") !== WITHIN_BOUND) continue;
      const key = `${named.get("method") ?? "?"} ${named.get("route") ?? "?"}`;
      const entry = counts.get(key) ?? { count: 0, within100Ms: 0 };
      if (kind === "count") entry.count += Number(value);
      else entry.within100Ms += Number(value);
      counts.set(key, entry);
    }
  }
  return counts;
}

/** Upstream attempts by method and route template as the BFF processes counted them (their metrics), summed. */
export const upstreamAttemptsByRoute = (metricsUrls: readonly string[]) => within100MsByRoute(metricsUrls, "tandem_upstream_request_duration_seconds");

/** Requests the BFF processes answered, by method and route template, timed by the BFF itself (to its response headers): the generator's own delays left out. */
export const bffAnswersByRoute = (metricsUrls: readonly string[]) => within100MsByRoute(metricsUrls, "tandem_http_request_duration_seconds");

/** A counter of the BFF processes' metrics (no labels), summed over the processes. */
export async function counterTotal(metricsUrls: readonly string[], counter: string): Promise<number> {
  const line = new RegExp(`^${counter} (\\d+(?:\\.\\d+)?)$`, "m");
  let total = 0;
  for (const url of metricsUrls) total += Number(line.exec(await metricsText(url))?.[1] ?? 0);
  return total;
}
