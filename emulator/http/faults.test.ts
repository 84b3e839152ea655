import { describe, expect, it } from "vitest";
import { ORG_A_ID } from "../world/identities.ts";
import { createTestEmulator } from "../testing/emulator-client.ts";

describe("fault injection (DESIGN.md /_sandbox/faults)", () => {
  it("a fault with only `code` gets that code's status, on the path as the spec writes it", async () => {
    const test = createTestEmulator();
    await test.sandbox("POST", "/faults", { method: "GET", path: "/v1/appointments/{id}", code: "internal_error" });
    const appointment = test.emulator.state.org(ORG_A_ID)?.ehr.appointments[0];
    const result = await test.call("GET /v1/appointments/{id}", { params: { id: appointment?.id ?? "" } });
    expect(result.status).toBe(500);
    expect(result.error?.code).toBe("internal_error");
    expect((await test.call("GET /v1/appointments")).status).toBe(200);
  });

  it("`count` limits how many requests a fault hits, then it is gone", async () => {
    const test = createTestEmulator();
    await test.sandbox("POST", "/faults", { method: "GET", path: "/v1/facilities", status: 500, count: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await test.call("GET /v1/facilities")).status);
    expect(statuses).toEqual([500, 500, 200]);
  });

  it("an injected 429 carries Retry-After and its own rate-limit headers", async () => {
    const test = createTestEmulator();
    await test.sandbox("POST", "/faults", { method: "GET", path: "/v1/providers", status: 429, count: 1 });
    const result = await test.call("GET /v1/providers");
    expect(result.status).toBe(429);
    expect(result.error?.code).toBe("rate_limit_exceeded");
    expect(result.headers.get("retry-after")).toBe("1");
    expect(result.headers.get("x-ratelimit-remaining")).toBe("0");
  });

  it("probability 0 never hits; DELETE clears every fault", async () => {
    const test = createTestEmulator();
    await test.sandbox("POST", "/faults", { method: "GET", path: "/v1/facilities", status: 500, probability: 0 });
    expect((await test.call("GET /v1/facilities")).status).toBe(200);
    await test.sandbox("POST", "/faults", { method: "*", path: "/v1/facilities", status: 503 });
    expect((await test.call("GET /v1/facilities")).status).toBe(503);
    await test.sandbox("DELETE", "/faults");
    expect((await test.call("GET /v1/facilities")).status).toBe(200);
  });

  it("refuses a fault that does nothing", async () => {
    const test = createTestEmulator();
    const result = await test.sandbox("POST", "/faults", { method: "GET", path: "/v1/facilities" });
    expect(result.status).toBe(400);
  });
});

describe("reset (DESIGN.md /_sandbox/reset)", () => {
  it("restores data, faults and the clock", async () => {
    const test = createTestEmulator();
    const before = test.emulator.clock.now();
    await test.sandbox("POST", "/faults", { method: "GET", path: "/v1/facilities", status: 500 });
    await test.sandbox("POST", "/clock", { advanceSeconds: 3600 });
    const note = test.emulator.state.org(ORG_A_ID)?.ehr.notes.find((candidate) => candidate.status === "awaiting_sign");
    await test.call("PATCH /v1/notes/{noteId}", { params: { noteId: note?.id ?? "" }, body: { stickyNoteDescription: "changed" } });
    await test.sandbox("POST", "/reset");
    expect(test.emulator.clock.now()).toBe(before);
    expect((await test.call("GET /v1/facilities")).status).toBe(200);
    const reread = await test.get("GET /v1/notes/{noteId}", { params: { noteId: note?.id ?? "" } });
    expect(reread.soapNote.stickyNote.description).not.toBe("changed");
  });
});
