import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import type { Registry } from "prom-client";
import type { Logger } from "../logger.ts";
import { collectProcessMetrics } from "./bff-metrics.ts";

// docs/operations.md "Where `/metrics` is served": `GET /metrics` in the Prometheus text format, on a port of
// its own (METRICS_PORT, bound to METRICS_HOST, 127.0.0.1 by default), never
// on the public one: the figures name organizations and routes, which the
// EHR's users have no business reading. Off unless METRICS_PORT is set.

export function createMetricsApp(registry: Registry): Hono {
  const app = new Hono();
  app.get("/metrics", async (c) => c.body(await registry.metrics(), 200, { "Content-Type": registry.contentType, "Cache-Control": "no-store" }));
  app.all("*", (c) => c.text("This port serves GET /metrics only", 404));
  return app;
}

/** Binds the metrics port; unref'd, so it never holds the process open once the public server has closed. */
export function serveMetrics(options: { registry: Registry; host: string; port: number; logger: Logger; onListening?: (port: number) => void }): ServerType {
  collectProcessMetrics(options.registry);
  const server = serve({ fetch: createMetricsApp(options.registry).fetch, hostname: options.host, port: options.port }, (info) => {
    options.logger.info({ host: options.host, port: info.port }, `metrics on http://${options.host}:${info.port}/metrics`);
    options.onListening?.(info.port);
  });
  server.once("error", (error) => {
    options.logger.fatal({ err: error }, `metrics: cannot listen on ${options.host}:${options.port} (METRICS_HOST, METRICS_PORT)`);
    process.exit(1);
  });
  server.unref();
  return server;
}
