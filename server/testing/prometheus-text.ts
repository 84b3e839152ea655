import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { Histogram, type Registry } from "prom-client";
import * as z from "zod/mini";

// Metrics as Prometheus reads them: the exposition text through a Prometheus
// text-format parser (parse-prometheus-text-format, a port of the Python
// client's), never our own regexes. That parser folds every labelled series of
// a histogram into one unlabelled sample (an open bug of that package:
// github.com/yunyu/parse-prometheus-text-format/issues/13), so a
// histogram's count per label set is cross-checked with prom-client's own
// registry API instead (`histogramCount`).

const labels = z.optional(z.record(z.string(), z.string()));
const family = z.object({
  name: z.string(),
  help: z.string(),
  type: z.enum(["COUNTER", "GAUGE", "HISTOGRAM", "SUMMARY", "UNTYPED"]),
  metrics: z.array(
    z.object({
      labels,
      value: z.optional(z.string()),
      buckets: z.optional(z.record(z.string(), z.string())),
      count: z.optional(z.string()),
      sum: z.optional(z.string()),
    }),
  ),
});
export type MetricFamily = z.infer<typeof family>;

export class Exposition {
  constructor(readonly families: readonly MetricFamily[]) {}

  static parse(text: string): Exposition {
    return new Exposition(z.parse(z.array(family), parsePrometheusTextFormat(text)));
  }

  family(name: string): MetricFamily | undefined {
    return this.families.find((candidate) => candidate.name === name);
  }

  /** A counter's or gauge's value for the sample with these labels (others ignored); undefined without one. */
  value(name: string, wanted: Record<string, string> = {}): number | undefined {
    const sample = (this.family(name)?.metrics ?? []).find((candidate) => Object.entries(wanted).every(([label, value]) => candidate.labels?.[label] === value));
    return sample?.value === undefined ? undefined : Number(sample.value);
  }
}

/** A histogram's observation count, summed over its series with these labels (others ignored); 0 without one. */
export async function histogramCount(registry: Registry, name: string, wanted: Record<string, string> = {}): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!(metric instanceof Histogram)) throw new Error(`no histogram ${name}`);
  const { values } = await metric.get();
  return values
    .filter((value) => value.metricName === `${name}_count` && Object.entries(wanted).every(([label, expected]) => String(value.labels[label]) === expected))
    .reduce((total, value) => total + value.value, 0);
}
