import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ORG_A_ID } from "../../emulator/world/identities.ts";
import { readBffConfig } from "../env.ts";
import { createLogger } from "../logger.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";
import { Exposition, histogramCount } from "../testing/prometheus-text.ts";
import { createMetricsApp, serveMetrics } from "./metrics-server.ts";

// docs/operations.md "The metrics": what an operator watches, read as Prometheus reads it
// (the text format through a Prometheus text parser), moving with requests.

let store: Store;
let harness: BffHarness;
let token: string;

beforeAll(async () => {
  store = await createStore();
  harness = await createBffHarness(store);
  token = await harness.hostToken();
});

afterAll(async () => {
  await harness.close();
  await store.close();
});

beforeEach(async () => {
  await harness.emulator.sandbox("DELETE", "/faults");
  harness.bff.clinic.invalidate(ORG_A_ID);
});

async function scrape(target: BffHarness = harness): Promise<Exposition> {
  const response = await createMetricsApp(target.bff.metrics).request("/metrics");
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  return Exposition.parse(await response.text());
}

const NAMED_METRICS = [
  ["tandem_http_request_duration_seconds", "HISTOGRAM"],
  ["tandem_http_refusals_total", "COUNTER"],
  ["tandem_upstream_request_duration_seconds", "HISTOGRAM"],
  ["tandem_upstream_budget_remaining_ratio", "GAUGE"],
  ["tandem_upstream_window_requests", "GAUGE"],
  ["tandem_upstream_window_limit_requests", "GAUGE"],
  ["tandem_upstream_cache_hits_total", "COUNTER"],
  ["tandem_upstream_coalesced_reads_total", "COUNTER"],
  ["tandem_upstream_refreshed_ahead_total", "COUNTER"],
  ["tandem_upstream_retries_total", "COUNTER"],
  ["tandem_upstream_limiter_rejections_total", "COUNTER"],
  ["tandem_upstream_intake_failures_total", "COUNTER"],
  ["tandem_webhook_inbox_unprocessed", "GAUGE"],
  ["tandem_webhook_inbox_oldest_unprocessed_age_seconds", "GAUGE"],
  ["tandem_webhook_dead_letters", "GAUGE"],
  ["tandem_live_event_streams_open", "GAUGE"],
  ["tandem_store_pool_connections", "GAUGE"],
  ["tandem_store_pool_idle_connections", "GAUGE"],
  ["tandem_store_pool_waiting_requests", "GAUGE"],
  ["tandem_retention_purged_rows_total", "COUNTER"],
  ["tandem_retention_failures_total", "COUNTER"],
] as const;

describe("GET /metrics", () => {
  it("exposes every named metric, with help and type", async () => {
    const exposition = await scrape();
    for (const [name, type] of NAMED_METRICS) {
      expect(exposition.family(name), name).toMatchObject({ type });
      expect(exposition.family(name)?.help, name).not.toBe("");
    }
  });

  it("counts a request under its route template, never its raw path, with the upstream call it made", async () => {
    const { metrics } = harness.bff;
    const providers = { route: "/api/providers", method: "GET", status_class: "2xx" };
    const upstream = { method: "GET", route: "/v1/providers", status: "200" };
    const requestsBefore = await histogramCount(metrics, "tandem_http_request_duration_seconds", providers);
    const upstreamBefore = await histogramCount(metrics, "tandem_upstream_request_duration_seconds", upstream);
    expect((await harness.api("/api/providers", { token })).status).toBe(200);
    expect(await histogramCount(metrics, "tandem_http_request_duration_seconds", providers)).toBe(requestsBefore + 1);
    expect(await histogramCount(metrics, "tandem_upstream_request_duration_seconds", upstream)).toBeGreaterThan(upstreamBefore);

    const noteId = "nte_00000000-0000-4000-8000-000000000000";
    await harness.api(`/api/notes/${noteId}`, { token });
    const { values } = await (metrics.getSingleMetric("tandem_http_request_duration_seconds")?.get() ?? Promise.resolve({ values: [] }));
    const routes = values.map((value) => String(value.labels.route));
    expect(routes).toContain("/api/notes/:id");
    expect(routes.filter((route) => route.includes(noteId))).toEqual([]);
  });

  it("a cached answer counts as a cache hit, not an upstream request", async () => {
    await harness.api("/api/providers", { token });
    const before = await scrape();
    const upstreamBefore = await histogramCount(harness.bff.metrics, "tandem_upstream_request_duration_seconds", { route: "/v1/providers" });
    await harness.api("/api/providers", { token });
    const after = await scrape();
    expect(after.value("tandem_upstream_cache_hits_total")).toBe((before.value("tandem_upstream_cache_hits_total") ?? 0) + 1);
    expect(await histogramCount(harness.bff.metrics, "tandem_upstream_request_duration_seconds", { route: "/v1/providers" })).toBe(upstreamBefore);
  });

  it("a 503 sent to the user is counted by its code, and the failed upstream attempts by their status", async () => {
    // Reads are retried twice: three failures reach the user.
    await harness.emulator.sandbox("POST", "/faults", { method: "GET", path: "/v1/facilities", code: "server_unresponsive", count: 3 });
    const { metrics } = harness.bff;
    const failed = { route: "/v1/facilities", status: "503" };
    const answered = { route: "/api/facilities", status_class: "5xx" };
    const before = await scrape();
    const failedBefore = await histogramCount(metrics, "tandem_upstream_request_duration_seconds", failed);
    const answeredBefore = await histogramCount(metrics, "tandem_http_request_duration_seconds", answered);
    const response = await harness.api("/api/facilities", { token });
    expect(response.status).toBe(503);
    const after = await scrape();
    const refused = { status: "503", code: "server_unresponsive" };
    expect(after.value("tandem_http_refusals_total", refused)).toBe((before.value("tandem_http_refusals_total", refused) ?? 0) + 1);
    expect(after.value("tandem_upstream_retries_total")).toBe((before.value("tandem_upstream_retries_total") ?? 0) + 2);
    expect(await histogramCount(metrics, "tandem_upstream_request_duration_seconds", failed)).toBe(failedBefore + 3);
    expect(await histogramCount(metrics, "tandem_http_request_duration_seconds", answered)).toBe(answeredBefore + 1);
  });

  it("reports the organization's remaining share of the key's budget, which falls as it sends", async () => {
    await harness.api("/api/providers", { token });
    const first = await scrape();
    const sentFirst = first.value("tandem_upstream_window_requests", { organization_id: ORG_A_ID }) ?? 0;
    const remainingFirst = first.value("tandem_upstream_budget_remaining_ratio", { organization_id: ORG_A_ID }) ?? Number.NaN;
    expect(sentFirst).toBeGreaterThan(0);
    expect(remainingFirst).toBeGreaterThan(0);
    expect(remainingFirst).toBeLessThan(1);
    expect(first.value("tandem_upstream_window_limit_requests")).toBe(1000);
    harness.bff.clinic.invalidate(ORG_A_ID);
    await harness.api("/api/providers", { token });
    const second = await scrape();
    expect(second.value("tandem_upstream_window_requests", { organization_id: ORG_A_ID })).toBeGreaterThan(sentFirst);
    expect(second.value("tandem_upstream_budget_remaining_ratio", { organization_id: ORG_A_ID })).toBeLessThan(remainingFirst);
  });

  it("reads the webhook inbox's depth, lag and dead letters from the store when scraped", async () => {
    const before = await scrape();
    const hookId = `msg_metrics_${Date.now()}`;
    await store.inbox.insert({ hookId, eventType: "fax.sent", payload: {}, receivedAt: harness.now() - 90_000 });
    await store.inbox.insertDeadLetter({ hookId: `${hookId}_dead`, eventType: "unknown", payload: { rawBody: "not json" }, receivedAt: harness.now(), reason: "the body is not JSON" });
    const after = await scrape();
    expect(after.value("tandem_webhook_inbox_unprocessed")).toBe((before.value("tandem_webhook_inbox_unprocessed") ?? 0) + 1);
    expect(after.value("tandem_webhook_inbox_oldest_unprocessed_age_seconds")).toBeGreaterThanOrEqual(90);
    expect(after.value("tandem_webhook_dead_letters")).toBe((before.value("tandem_webhook_dead_letters") ?? 0) + 1);
    await store.inbox.markProcessed(hookId, harness.now());
    const drained = await scrape();
    expect(drained.value("tandem_webhook_inbox_unprocessed")).toBe(before.value("tandem_webhook_inbox_unprocessed"));
  });

  it("counts the live-event streams open", async () => {
    const before = (await scrape()).value("tandem_live_event_streams_open") ?? 0;
    // Not `harness.api`: it reads the whole body, and a stream has no end.
    const stream = await harness.bff.app.request("/api/events", { headers: { authorization: `Bearer ${token}` } });
    expect(stream.status).toBe(200);
    expect((await scrape()).value("tandem_live_event_streams_open")).toBe(before + 1);
    await stream.body?.cancel();
    await vi.waitFor(async () => expect((await scrape()).value("tandem_live_event_streams_open")).toBe(before));
  });

  it("reports the store's pool: PGlite is one session", async () => {
    const exposition = await scrape();
    expect(exposition.value("tandem_store_pool_connections")).toBe(1);
    expect(exposition.value("tandem_store_pool_idle_connections")).toBe(0);
    expect(exposition.value("tandem_store_pool_waiting_requests")).toBe(0);
  });
});

describe("429s sent to users", () => {
  let limited: BffHarness;

  beforeAll(async () => {
    limited = await createBffHarness(store, { configOverrides: { upstreamUserLimit: 1 } });
  });

  afterAll(async () => {
    await limited.close();
  });

  it("are counted by code, beside the per-user limiter's rejections", async () => {
    const user = await limited.hostToken({ userId: limited.userWithRole("Front Desk") });
    const before = await scrape(limited);
    expect((await limited.api("/api/providers", { token: user })).status).toBe(200);
    limited.bff.clinic.invalidate(ORG_A_ID);
    const refused = await limited.api("/api/providers", { token: user });
    expect(refused.status).toBe(429);
    const after = await scrape(limited);
    const rateLimited = { status: "429", code: "rate_limited" };
    expect(after.value("tandem_http_refusals_total", rateLimited)).toBe((before.value("tandem_http_refusals_total", rateLimited) ?? 0) + 1);
    expect(after.value("tandem_upstream_limiter_rejections_total", { limiter: "user" })).toBe((before.value("tandem_upstream_limiter_rejections_total", { limiter: "user" }) ?? 0) + 1);
    expect(after.value("tandem_upstream_limiter_rejections_total", { limiter: "key_budget" })).toBe(0);
  });
});

describe("where /metrics is served", () => {
  it("is off by default: no metrics port, and the public port does not answer them", async () => {
    expect(readBffConfig({}).metrics).toBeNull();
    await harness.api("/api/providers", { token });
    const response = await harness.api("/metrics");
    expect(response.headers.get("content-type") ?? "").not.toContain("version=0.0.4");
    const text = await response.text();
    expect(text).not.toContain("tandem_http_request_duration_seconds");
    expect(text).not.toContain("# TYPE");
  });

  it("with METRICS_PORT, serves them on its own listener on 127.0.0.1, with the process's memory and event-loop delay", async () => {
    const config = readBffConfig({ METRICS_PORT: "0" });
    expect(config.metrics).toEqual({ host: "127.0.0.1", port: 0 });
    if (!config.metrics) throw new Error("unreachable");
    let listening: (port: number) => void = () => undefined;
    const bound = new Promise<number>((resolve) => {
      listening = resolve;
    });
    const server = serveMetrics({ ...config.metrics, registry: harness.bff.metrics, logger: createLogger({ level: "silent", secrets: [] }), onListening: listening });
    try {
      const port = await bound;
      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(response.status).toBe(200);
      const exposition = Exposition.parse(await response.text());
      expect(exposition.value("process_resident_memory_bytes")).toBeGreaterThan(0);
      expect(exposition.family("nodejs_eventloop_lag_seconds")).toMatchObject({ type: "GAUGE" });
      expect(exposition.family("tandem_http_request_duration_seconds")).toBeDefined();
      expect((await fetch(`http://127.0.0.1:${port}/api/session`)).status).toBe(404);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
