import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { takeIn } from "./answer-intake.ts";
import { IntakeThread, IntakeThreadError, REPLY_TIMEOUT_MS } from "./intake-thread.ts";
import { createHarness, expectNoKeyLeak, ORG_A } from "./testing/emulator-harness.ts";

// The BFF takes in shared answers on a worker thread (answer-intake.ts): what
// the thread hands back must be what taking them in on the event loop gives,
// a contract violation included, and a thread that is gone must not lose a read.

const harness = createHarness();
beforeEach(async () => {
  harness.rewrite = null;
  await harness.reset();
});
afterAll(() => {
  expectNoKeyLeak(harness);
});

const slotsCall = (appointmentTypeId: string) => ({ organizationId: ORG_A, query: { appointmentTypeId, startDate: "2026-11-23", endDate: "2026-12-06" } });

describe("the intake thread", () => {
  it("gives the bytes, encoding and meta that taking the answer in on the event loop gives", async () => {
    const thread = new IntakeThread();
    try {
      const body = await (await harness.fetch("http://clinic.test/v1/facilities", { headers: { authorization: "Bearer svc_dev_ak_5a0d1e2f3a4b5c6d7e8f90a1b2c3d4e5", "x-organization-id": ORG_A } })).text();
      const here = takeIn("GET /v1/facilities", body);
      const there = await thread.takeIn("GET /v1/facilities", new TextEncoder().encode(body));
      expect(there.kind).toBe("ok");
      if (here.kind !== "ok" || there.kind !== "ok") throw new Error("not taken in");
      expect(there.encoding).toBe(here.encoding);
      expect(Buffer.from(there.body).equals(Buffer.from(here.body))).toBe(true);
      expect(there).not.toHaveProperty("data");
      expect(await thread.takeIn("GET /v1/facilities", new TextEncoder().encode("<html>"))).toEqual({ kind: "not_json" });
    } finally {
      thread.close();
    }
  });

  it("serves a client the same slot search and data as a client without it", async () => {
    const now = () => harness.emulator.clock.now();
    const inline = harness.client({ now });
    const threaded = harness.client({ now, intakeThread: true, intakeThreadMinBytes: 0 });
    try {
      const types = (await inline.read("GET /v3/appointment-types", { organizationId: ORG_A })).data();
      const call = slotsCall(types.appointmentTypes[0]?.id ?? "");
      const [mine, theirs] = await Promise.all([inline.read("GET /v2/schedule/slots", call), threaded.read("GET /v2/schedule/slots", call)]);
      expect(theirs.encoding).toBe("gzip");
      expect(theirs.data()).toEqual(mine.data());
      expect(theirs.data().slots.length).toBeGreaterThan(0);
      // Cached as it came from the thread.
      expect(await threaded.read("GET /v2/schedule/slots", call)).toBe(theirs);
    } finally {
      inline.close();
      threaded.close();
    }
  });

  it("reports a contract violation found on the thread as a 502 naming the field", async () => {
    const client = harness.client({ intakeThread: true, intakeThreadMinBytes: 0 });
    try {
      harness.rewrite = async (_request, response) => {
        const corrupted: unknown = JSON.parse((await response.text()).replace('"page":1', '"page":0'));
        return Response.json(corrupted, { status: 200, headers: { "x-trace-id": "trc_from_header" } });
      };
      const error = await client.read("GET /v1/facilities", { organizationId: ORG_A }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 502, code: "contract_violation", upstreamTraceId: "trc_from_header" });
      expect(String(error)).toContain("data.pagination.page: must be at least 1");
    } finally {
      client.close();
    }
  });

  it("fails the answers it was given when closed, and starts afresh on the next", async () => {
    const thread = new IntakeThread();
    const body = new TextEncoder().encode(JSON.stringify({ data: {} }));
    const lost = thread.takeIn("GET /v1/facilities", body);
    thread.close();
    await expect(lost).rejects.toThrow("closed");
    const again = await thread.takeIn("GET /v1/facilities", new TextEncoder().encode("[]"));
    expect(again.kind).toBe("contract_violation");
    thread.close();
  });
});

describe("when the thread is used", () => {
  it("takes answers under the size bound in on the event loop, larger ones on the thread", async () => {
    const thread = new IntakeThread();
    const takeInSpy = vi.spyOn(thread, "takeIn");
    const small = harness.client({ intakeThread: thread });
    const large = harness.client({ intakeThread: thread, intakeThreadMinBytes: 1 });
    try {
      expect(((await small.read("GET /v1/facilities", { organizationId: ORG_A })).data()).facilities.length).toBeGreaterThan(0);
      expect(takeInSpy).not.toHaveBeenCalled();
      expect(thread.running).toBe(false);
      expect(((await large.read("GET /v1/facilities", { organizationId: ORG_A })).data()).facilities.length).toBeGreaterThan(0);
      expect(takeInSpy).toHaveBeenCalledTimes(1);
    } finally {
      small.close();
      large.close();
      thread.close();
    }
  });

  it("stops a worker left idle, and starts one again for the next answer", async () => {
    const thread = new IntakeThread({ idleStopMs: 20 });
    const body = () => new TextEncoder().encode("[]");
    try {
      expect((await thread.takeIn("GET /v1/facilities", body())).kind).toBe("contract_violation");
      expect(thread.running).toBe(true);
      await vi.waitFor(() => expect(thread.running).toBe(false), { timeout: 2_000, interval: 10 });
      expect((await thread.takeIn("GET /v1/facilities", body())).kind).toBe("contract_violation");
      expect(thread.running).toBe(true);
    } finally {
      thread.close();
    }
  });
});

describe("a client whose intake thread is gone", () => {
  const gone = { takeIn: () => Promise.reject(new IntakeThreadError("the intake thread exited (1)", "failed")), close: () => undefined };

  it("still takes answers under the size bound in on the event loop (they never go to the thread)", async () => {
    const client = harness.client({ intakeThread: gone });
    try {
      const facilities = (await client.read("GET /v1/facilities", { organizationId: ORG_A })).data();
      expect(facilities.facilities.length).toBeGreaterThan(0);
    } finally {
      client.close();
    }
  });

  it("fails a larger answer with 503 intake_failed, logged and counted, instead of taking it in on the event loop (issue 34)", async () => {
    const client = harness.client({ intakeThread: gone, intakeThreadMinBytes: 1 });
    try {
      const error = await client.read("GET /v1/facilities", { organizationId: ORG_A }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 503, code: "intake_failed" });
      expect(client.stats()).toMatchObject({ intakeFailures: 1, intakeTimeouts: 0, retries: 0 });
      const logged = harness.logs.filter((line) => line.msg.startsWith("clinic: the intake thread could not take in an answer"));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ level: "error", obj: { route: "GET /v1/facilities", reason: "failed" } });
      // Not kept: the next read asks the service again.
      await client.read("GET /v1/facilities", { organizationId: ORG_A }).catch(() => undefined);
      expect(harness.count("GET", "/v1/facilities")).toBe(2);
    } finally {
      client.close();
    }
  });
});

describe("a thread that does not answer", () => {
  const small = () => new TextEncoder().encode("[]");

  it(`fails the answer as a timeout after ${REPLY_TIMEOUT_MS} ms, without waiting on the worker, and gives the next answer a new worker`, async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const thread = new IntakeThread();
    try {
      const answer = thread.takeIn("GET /v1/facilities", small());
      // Synchronously: the worker cannot have replied yet.
      vi.advanceTimersByTime(REPLY_TIMEOUT_MS);
      await expect(answer).rejects.toMatchObject({ name: "IntakeThreadError", reason: "timeout" });
      expect((await thread.takeIn("GET /v1/facilities", small())).kind).toBe("contract_violation");
    } finally {
      vi.useRealTimers();
      thread.close();
    }
  });

  it("times an answer from when the worker is given it, not while it waits behind others (20 large answers at once)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const thread = new IntakeThread();
    try {
      const first = thread.takeIn("GET /v1/facilities", small());
      const second = thread.takeIn("GET /v1/facilities", small());
      vi.advanceTimersByTime(REPLY_TIMEOUT_MS - 1);
      expect((await first).kind).toBe("contract_violation");
      // The second has waited its turn for almost the whole timeout; it is timed from now.
      vi.advanceTimersByTime(REPLY_TIMEOUT_MS - 1);
      expect((await second).kind).toBe("contract_violation");
    } finally {
      vi.useRealTimers();
      thread.close();
    }
  });
});
