import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { appErrorBody } from "#contract/app-api/errors.ts";
import { parseTraceparent } from "#contract/app-api/trace-context.ts";
import { ORG_A_ID } from "../../emulator/world/identities.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";

// docs/operations.md "Following one request: trace ids": the SPA's trace id is on every BFF log line of the request,
// in its error body, and in the `traceparent` of each call it makes upstream.

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
  // Pickers are cached: each test's request must reach the service.
  harness.bff.clinic.invalidate(ORG_A_ID);
  harness.logLines.length = 0;
  harness.upstream.length = 0;
});

/** The `traceparent` of each call to the service's API (not the platform's JWKS, which the host-token check fetches). */
const serviceTraceparents = () => harness.upstreamTraceparents.filter((_header, index) => /^\w+ https?:\/\/[^/]+\/v\d+\//.test(harness.upstreamRequests[index] ?? ""));

const SPA_TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPA_TRACEPARENT = `00-${SPA_TRACE_ID}-00f067aa0ba902b7-01`;
const logLine = z.looseObject({ msg: z.string(), traceId: z.optional(z.string()) });
const parsedLogLines = () => harness.logLines.map((line) => z.parse(logLine, JSON.parse(line)));

describe("a trace id from the SPA", () => {
  it("is on every log line of the request, in the error body, and in each upstream call's traceparent", async () => {
    // A 404 is not retried: one upstream call, one warning from the error handler.
    await harness.emulator.sandbox("POST", "/faults", { method: "GET", path: "/v1/facilities", code: "not_found", count: 1 });
    const response = await harness.api("/api/facilities", { token, headers: { traceparent: SPA_TRACEPARENT } });
    expect(response.status).toBe(404);
    expect(z.parse(appErrorBody, await response.json()).trace_id).toBe(`tdm_${SPA_TRACE_ID}`);
    const lines = parsedLogLines();
    expect(lines.map((line) => line.msg)).toContain("upstream call failed");
    for (const line of lines) expect(line.traceId).toBe(`tdm_${SPA_TRACE_ID}`);
    expect(serviceTraceparents().length).toBeGreaterThan(0);
    for (const header of serviceTraceparents()) {
      expect(parseTraceparent(header)).toMatchObject({ traceId: SPA_TRACE_ID, flags: "01" });
    }
  });

  it("is on the lines the upstream client writes, and each retry goes upstream as a new span of the same trace", async () => {
    await harness.emulator.sandbox("POST", "/faults", { method: "GET", path: "/v1/providers", code: "server_unresponsive", count: 1 });
    const response = await harness.api("/api/providers", { token, headers: { traceparent: SPA_TRACEPARENT } });
    expect(response.status).toBe(200);
    const lines = parsedLogLines();
    expect(lines.map((line) => line.msg)).toContain("clinic: retrying a read");
    for (const line of lines) expect(line.traceId).toBe(`tdm_${SPA_TRACE_ID}`);
    const contexts = serviceTraceparents().map((header) => parseTraceparent(header));
    expect(contexts.length).toBeGreaterThanOrEqual(2);
    for (const context of contexts) expect(context?.traceId).toBe(SPA_TRACE_ID);
    const spans = contexts.map((context) => context?.parentId);
    expect(new Set(spans).size).toBe(spans.length);
    expect(spans).not.toContain("00f067aa0ba902b7");
  });
});

describe("without a valid trace id from the caller", () => {
  it("starts a trace of its own and passes it upstream", async () => {
    await harness.emulator.sandbox("POST", "/faults", { method: "GET", path: "/v1/facilities", code: "not_found", count: 1 });
    const response = await harness.api("/api/facilities", { token });
    const body = z.parse(appErrorBody, await response.json());
    expect(body.trace_id).toMatch(/^tdm_[0-9a-f]{32}$/);
    expect(parseTraceparent(serviceTraceparents()[0])?.traceId).toBe(body.trace_id.slice("tdm_".length));
    for (const line of parsedLogLines()) expect(line.traceId).toBe(body.trace_id);
  });

  it.each([
    ["text that is not a traceparent", "hello level=fatal forged log line"],
    ["an all-zero trace id", `00-${"0".repeat(32)}-00f067aa0ba902b7-01`],
    ["an unknown version", `ff-${SPA_TRACE_ID}-00f067aa0ba902b7-01`],
    ["upper-case hex", `00-${SPA_TRACE_ID.toUpperCase()}-00f067aa0ba902b7-01`],
    ["a trailing field", `${SPA_TRACEPARENT}-extra`],
  ])("ignores %s: nothing of it reaches a log line, the body or the service", async (_what, header) => {
    await harness.emulator.sandbox("POST", "/faults", { method: "GET", path: "/v1/facilities", code: "not_found", count: 1 });
    const response = await harness.api("/api/facilities", { token, headers: { traceparent: header } });
    const body = z.parse(appErrorBody, await response.json());
    expect(body.trace_id).toMatch(/^tdm_[0-9a-f]{32}$/);
    expect(body.trace_id).not.toContain(SPA_TRACE_ID);
    const written = harness.logLines.join("");
    expect(written).not.toContain("forged");
    expect(written).not.toContain(SPA_TRACE_ID);
    expect(written).not.toContain(SPA_TRACE_ID.toUpperCase());
    for (const upstream of serviceTraceparents()) expect(upstream).not.toContain(SPA_TRACE_ID);
  });
});
