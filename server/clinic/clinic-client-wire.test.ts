import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createClinicClient } from "./clinic-client.ts";
import { createHarness, DATA_KEY, expectNoKeyLeak, keyLeaks, ORG_A, ORG_C, REVOKED_KEY, type Harness } from "./testing/emulator-harness.ts";

// Seed 001 "Common rules" (headers), "Errors" (codes and trace ids);
// DESIGN.md "Upstream" (lists comma-separated, keep-alive), "The BFF's API"
// (only server/clinic converts ids) and the key rule: never in an error or log.

let harness: Harness;
let notes: { id: string; status: string }[];

beforeAll(async () => {
  harness = createHarness();
  notes = await harness.sandboxNotes(ORG_A);
});
beforeEach(async () => {
  await harness.reset();
});
afterAll(() => {
  // Every error and log line of this file: the error-mapping tests above produce plenty.
  expect(harness.errors.length).toBeGreaterThan(5);
  expectNoKeyLeak(harness);
});

const noteWith = (signed: boolean) => {
  const note = notes.find((candidate) => (candidate.status === "signed") === signed);
  if (!note) throw new Error(`no ${signed ? "signed" : "unsigned"} note in the sandbox`);
  return note.id;
};

describe("what goes on the wire", () => {
  it("Bearer key, the organization header from organizationId, JSON bodies", async () => {
    const client = harness.client();
    const noteId = noteWith(false);
    await client.send("PATCH /v1/notes/{noteId}", { organizationId: ORG_A.toUpperCase(), params: { noteId }, body: { stickyNoteDescription: "wire" } });
    const [call] = harness.calls;
    expect(call?.headers.get("authorization")).toBe(`Bearer ${DATA_KEY}`);
    expect(call?.headers.get("x-organization-id")).toBe(ORG_A);
    expect(call?.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(call?.body ?? "")).toEqual({ stickyNoteDescription: "wire" });
  });

  it("the installations list goes without X-Organization-Id and pages through every installation", async () => {
    const client = harness.client();
    const installations = await client.listAllInstallations();
    expect(installations.map((installation) => installation.organizationId)).toEqual(expect.arrayContaining([ORG_A, ORG_C]));
    expect(harness.calls.every((call) => call.headers.get("x-organization-id") === null)).toBe(true);
  });

  it("listAll pages at pageSize 100 until totalPages", async () => {
    const client = harness.client();
    const patients = await client.listAll("GET /v1/patients", "patients", { organizationId: ORG_A });
    const pages = harness.calls.map((call) => [call.search.get("page"), call.search.get("pageSize")]);
    expect(patients.length).toBeGreaterThanOrEqual(300);
    expect(pages.length).toBe(Math.ceil(patients.length / 100));
    expect(pages[0]).toEqual(["1", "100"]);
    expect(new Set(patients.map((patient) => patient.id)).size).toBe(patients.length);
  });

  it("provider and facility ids go out comma-separated in the schedule's form, whichever form the caller had", async () => {
    const client = harness.client();
    const [types, providers, facilities] = await Promise.all([
      client.read("GET /v3/appointment-types", { organizationId: ORG_A }).then((answer) => answer.data()),
      client.read("GET /v1/providers", { organizationId: ORG_A }).then((answer) => answer.data()),
      client.read("GET /v1/facilities", { organizationId: ORG_A }).then((answer) => answer.data()),
    ]);
    const providerIds = providers.providers.slice(0, 3).map((provider) => provider.id);
    const facilityIds = facilities.facilities.map((facility) => facility.id);
    const slots = (await client.read("GET /v2/schedule/slots", {
      organizationId: ORG_A,
      query: { appointmentTypeId: types.appointmentTypes[0]?.id, providerIds, facilityIds, startDate: "2026-11-23", endDate: "2026-11-27" },
    })).data();
    expect(slots.meta.completeness).toBe("complete");
    const sent = harness.calls.at(-1)?.search;
    expect(sent?.get("providerIds")?.split(",")).toHaveLength(3);
    expect(sent?.get("providerIds")).toMatch(/^prv_[0-9a-f]{32}(,prv_[0-9a-f]{32}){2}$/);
    expect(sent?.get("facilityIds")).toMatch(/^fac_[0-9a-f]{32}(,fac_[0-9a-f]{32})*$/);
  });

  it("the default fetch keeps connections alive: five calls share sockets", async () => {
    const requestsPerSocket = new Map<object, number>();
    const server = serve({ fetch: harness.emulator.app.fetch, port: 0, hostname: "127.0.0.1" });
    server.on("request", (request: { socket: object }) => requestsPerSocket.set(request.socket, (requestsPerSocket.get(request.socket) ?? 0) + 1));
    await new Promise<void>((resolve) => server.once("listening", resolve));
    const { port } = server.address() as AddressInfo;
    const client = createClinicClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: DATA_KEY });
    try {
      for (let page = 1; page <= 5; page += 1) (await client.read("GET /v1/patients", { organizationId: ORG_A, query: { page } })).data();
      // undici hands a socket back to its pool a tick after the body ends, so a
      // call made at once may open a second one; reuse is what matters.
      expect(requestsPerSocket.size).toBeLessThanOrEqual(2);
      expect(Math.max(...requestsPerSocket.values())).toBeGreaterThanOrEqual(3);
    } finally {
      client.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ("closeAllConnections" in server) server.closeAllConnections();
      });
    }
  });
});

describe("contract violations become 502, never a crash", () => {
  it("a 2xx body that does not parse names the route and the first failing field, and logs the trace id", async () => {
    const client = harness.client({ retry: { reads: 2 } });
    harness.rewrite = async (_request, response) => {
      const json: unknown = await response.json();
      const corrupted: unknown = JSON.parse(JSON.stringify(json).replace('"page":1', '"page":0'));
      return Response.json(corrupted, { status: 200, headers: { "x-trace-id": "trc_from_header" } });
    };
    const error = await client.read("GET /v1/facilities", { organizationId: ORG_A }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 502, code: "contract_violation", upstreamTraceId: "trc_from_header" });
    expect(String(error)).toContain("GET /v1/facilities");
    expect(String(error)).toContain("data.pagination.page: must be at least 1");
    // Not retried: the same answer would come back.
    expect(harness.count("GET", "/v1/facilities")).toBe(1);
    expect(harness.logs.at(-1)).toMatchObject({ level: "warn", obj: { route: "GET /v1/facilities", upstreamTraceId: "trc_from_header" } });
  });

  it("a body that is not JSON, or a 4xx without the error body, is a contract violation too", async () => {
    const client = harness.client();
    harness.rewrite = () => new Response("<html>ok</html>", { status: 200, headers: { "content-type": "text/html" } });
    await expect(client.read("GET /v1/notes/{noteId}", { organizationId: ORG_A, params: { noteId: noteWith(false) } }).then((answer) => answer.data())).rejects.toMatchObject({
      status: 502,
      code: "contract_violation",
      message: expect.stringContaining("not JSON") as unknown,
    });
    harness.rewrite = () => new Response("nope", { status: 404 });
    await expect(client.read("GET /v1/notes/{noteId}", { organizationId: ORG_A, params: { noteId: noteWith(false) } }).then((answer) => answer.data())).rejects.toMatchObject({ code: "contract_violation" });
  });

  it("a 5xx without the error body (a gateway page) is upstream_unavailable, retried on reads", async () => {
    const client = harness.client({ retry: { reads: 1 } });
    harness.rewrite = () => new Response("<html>bad gateway</html>", { status: 502 });
    await expect(client.read("GET /v1/facilities", { organizationId: ORG_A }).then((answer) => answer.data())).rejects.toMatchObject({ status: 503, code: "upstream_unavailable", upstreamStatus: 502 });
    expect(harness.count("GET", "/v1/facilities")).toBe(2);
  });
});

describe("service errors keep their code and trace id", () => {
  it("PATCH of a signed note: 409 conflict", async () => {
    const client = harness.client();
    const error = await client.send("PATCH /v1/notes/{noteId}", { organizationId: ORG_A, params: { noteId: noteWith(true) }, body: { stickyNoteDescription: "late" } }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "UpstreamError", status: 409, code: "conflict", message: "The note is signed and cannot be edited", upstreamTraceId: expect.stringMatching(/^trc_[0-9a-f]+$/) as unknown });
  });

  it("an uninstalled organization: 403 forbidden", async () => {
    const client = harness.client();
    await expect(client.read("GET /v1/providers", { organizationId: ORG_C }).then((answer) => answer.data())).rejects.toMatchObject({ status: 403, code: "forbidden", upstreamTraceId: expect.stringMatching(/^trc_/) as unknown });
  });

  it("a bad path id: 400 bad_request with the service's message", async () => {
    const client = harness.client();
    await expect(client.read("GET /v1/notes/{noteId}", { organizationId: ORG_A, params: { noteId: "not-a-uuid" } }).then((answer) => answer.data())).rejects.toMatchObject({
      status: 400,
      code: "bad_request",
      message: "noteId must be a valid UUID",
    });
  });

  it("a revoked data key: the service's 401 is the BFF's own failure (502), code kept", async () => {
    const client = harness.client({ apiKey: REVOKED_KEY });
    await expect(client.read("GET /v1/providers", { organizationId: ORG_A }).then((answer) => answer.data())).rejects.toMatchObject({ status: 502, code: "unauthorized", upstreamStatus: 401 });
  });
});

describe("the data key never appears in an error or a log line", () => {
  it("a service message that echoes the key is redacted", async () => {
    const client = harness.client();
    harness.rewrite = (request) =>
      Response.json({ code: "unauthorized", message: `Key ${request.headers.get("authorization") ?? ""} rejected (${DATA_KEY})`, trace_id: "trc_echo" }, { status: 401 });
    const error = await client.read("GET /v1/providers", { organizationId: ORG_A }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "unauthorized", upstreamTraceId: "trc_echo" });
    expect(String(error)).not.toContain(DATA_KEY);
    expect(String(error)).toContain("[redacted]");
  });

  it("the check run after each file finds a key in an error's text or a log object", () => {
    expect(keyLeaks({ errors: [new Error(`boom ${DATA_KEY}`)], logs: [] })).not.toEqual([]);
    expect(keyLeaks({ errors: [], logs: [{ level: "warn", obj: { nested: { header: `Bearer ${DATA_KEY}` } }, msg: "x" }] })).not.toEqual([]);
    expect(keyLeaks({ errors: [new Error("fine")], logs: [] })).toEqual([]);
  });
});
