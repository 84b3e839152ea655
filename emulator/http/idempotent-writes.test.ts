import { describe, expect, it } from "vitest";
import { ORG_A_ID, ORG_B_ID } from "../world/identities.ts";
import { createTestEmulator, type TestEmulator } from "../testing/emulator-client.ts";
import { IDEMPOTENCY_WINDOW_MS } from "./idempotent-writes.ts";

// The assumed Idempotency-Key contract of POST /v2/tasks and POST /v4/schedule/holds (docs/assumed-contracts.md).

function people(test: TestEmulator) {
  const org = test.emulator.state.org(ORG_A_ID);
  const note = org?.ehr.notes.find((candidate) => candidate.status === "awaiting_sign");
  const physician = org?.ehr.providers.find((provider) => provider.roles.includes("Physician"));
  if (!org || !note || !physician) throw new Error("seed lacks a note or a physician");
  return { org, note, physician };
}

const taskBody = (test: TestEmulator, notes = "Call the patient") => {
  const { note, physician } = people(test);
  return { noteId: note.id, providerId: physician.id, notes, assigneeIds: [physician.id] };
};

async function holdBody(test: TestEmulator) {
  const { appointmentTypes } = await test.get("GET /v3/appointment-types");
  const type = appointmentTypes[0];
  const now = test.emulator.clock.now();
  const day = 86_400_000;
  const { slots } = await test.get("GET /v2/schedule/slots", {
    query: { appointmentTypeId: type?.id, startDate: new Date(now + day).toISOString().slice(0, 10), endDate: new Date(now + 7 * day).toISOString().slice(0, 10) },
  });
  const slot = slots.find((candidate) => candidate.remainingCapacity === 1);
  if (!type || !slot) throw new Error("no single-capacity slot");
  return { providerId: slot.providerId, facilityId: slot.facilityId, startsAt: slot.startsAt, endsAt: slot.endsAt, appointmentTypeId: type.id };
}

describe("Idempotency-Key on POST /v2/tasks", () => {
  it("the same key and body answer the first task again, marked replayed, and create nothing more", async () => {
    const test = createTestEmulator();
    const body = taskBody(test);
    const first = await test.call("POST /v2/tasks", { body, headers: { "idempotency-key": "k-1" } });
    const again = await test.call("POST /v2/tasks", { body, headers: { "idempotency-key": "k-1" } });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.data?.id).toBe(first.data?.id);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(people(test).org.tasks).toHaveLength(1);
  });

  it("another body under the same key is refused with 422 naming the key; another key or no key creates", async () => {
    const test = createTestEmulator();
    await test.get("POST /v2/tasks", { body: taskBody(test), headers: { "idempotency-key": "k-2" } });
    const changed = await test.call("POST /v2/tasks", { body: taskBody(test, "Another text"), headers: { "idempotency-key": "k-2" } });
    expect(changed.status).toBe(422);
    expect(changed.error?.message).toMatch(/k-2/);
    await test.get("POST /v2/tasks", { body: taskBody(test), headers: { "idempotency-key": "k-3" } });
    await test.get("POST /v2/tasks", { body: taskBody(test) });
    expect(people(test).org.tasks).toHaveLength(3);
  });

  it("is scoped to the organization, forgotten after 24 hours and on reset", async () => {
    const test = createTestEmulator();
    const body = taskBody(test);
    await test.get("POST /v2/tasks", { body, headers: { "idempotency-key": "k-4" } });
    expect(test.emulator.state.org(ORG_B_ID)?.idempotentAnswers.size).toBe(0);
    test.emulator.clock.set({ advanceSeconds: IDEMPOTENCY_WINDOW_MS / 1000 });
    await test.get("POST /v2/tasks", { body, headers: { "idempotency-key": "k-4" } });
    expect(people(test).org.tasks).toHaveLength(2);
    await test.sandbox("POST", "/reset");
    expect(test.emulator.state.org(ORG_A_ID)?.idempotentAnswers.size).toBe(0);
  });

  it("a request an injected fault answered keeps no answer: the retry under the same key is carried out", async () => {
    const test = createTestEmulator();
    await test.sandbox("POST", "/faults", { method: "POST", path: "/v2/tasks", status: 502, count: 1 });
    const body = taskBody(test);
    expect((await test.call("POST /v2/tasks", { body, headers: { "idempotency-key": "k-5" } })).status).toBe(502);
    expect((await test.call("POST /v2/tasks", { body, headers: { "idempotency-key": "k-5" } })).status).toBe(200);
    expect(people(test).org.tasks).toHaveLength(1);
  });

  it("is ignored when the emulator is set not to honour it, as a service without the contract would", async () => {
    const test = createTestEmulator({ settings: { honourIdempotencyKey: false } });
    const body = taskBody(test);
    await test.get("POST /v2/tasks", { body, headers: { "idempotency-key": "k-6" } });
    await test.get("POST /v2/tasks", { body, headers: { "idempotency-key": "k-6" } });
    expect(people(test).org.tasks).toHaveLength(2);
  });
});

describe("Idempotency-Key on POST /v4/schedule/holds", () => {
  it("the same key and body answer the first hold again instead of a 409 for the place it took", async () => {
    const test = createTestEmulator();
    const body = await holdBody(test);
    const first = await test.get("POST /v4/schedule/holds", { body, headers: { "idempotency-key": "h-1" } });
    const again = await test.call("POST /v4/schedule/holds", { body, headers: { "idempotency-key": "h-1" } });
    expect(again.status).toBe(200);
    expect(again.data?.hold.id).toBe(first.hold.id);
    const other = await test.call("POST /v4/schedule/holds", { body, headers: { "idempotency-key": "h-2" } });
    expect(other.status).toBe(409);
  });
});
