// The package ships no types; its answer is parsed with zod where it is used (server/testing/prometheus-text.ts).
declare module "parse-prometheus-text-format" {
  export default function parsePrometheusTextFormat(text: string): unknown;
}
