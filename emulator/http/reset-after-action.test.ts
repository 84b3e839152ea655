import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { describe, expect, it } from "vitest";
import { createTestEmulator, FULL_KEY } from "../testing/emulator-client.ts";
import { ORG_A_ID } from "../world/identities.ts";

// The sandbox fault `afterAction: "reset"` (docs/sandbox.md): the service
// carries the write out, then destroys the connection, so the caller never
// gets the answer of a write that happened.

describe("afterAction reset", () => {
  it("creates the task and resets the connection, once; the next request is answered", async () => {
    const test = createTestEmulator();
    const org = test.emulator.state.org(ORG_A_ID);
    const note = org?.ehr.notes.find((candidate) => candidate.status === "awaiting_sign");
    const physician = org?.ehr.providers.find((provider) => provider.roles.includes("Physician"));
    if (!org || !note || !physician) throw new Error("seed lacks a note or a physician");
    const added = await test.sandbox("POST", "/faults", { method: "POST", path: "/v2/tasks", afterAction: "reset", count: 1 });
    expect(added.status).toBe(200);
    const server = serve({ fetch: test.emulator.app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise<void>((resolve) => server.once("listening", resolve));
    try {
      const post = () =>
        fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/tasks`, {
          method: "POST",
          headers: { authorization: `Bearer ${FULL_KEY}`, "x-organization-id": ORG_A_ID, "content-type": "application/json" },
          body: JSON.stringify({ noteId: note.id, providerId: physician.id, notes: "Reset after acting", assigneeIds: [physician.id] }),
        });
      await expect(post()).rejects.toThrow(/fetch failed/);
      expect(org.tasks.filter((task) => task.notes === "Reset after acting")).toHaveLength(1);
      expect((await post()).status).toBe(200);
      expect(org.tasks.filter((task) => task.notes === "Reset after acting")).toHaveLength(2);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
