import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { liveEvent, type LiveEvent } from "#contract/app-api/live-events.ts";
import { appointmentTypesResponse } from "#contract/app-api/session.ts";
import { holdResponse, slotSearchResponse } from "#contract/app-api/slots.ts";
import { addDays } from "#contract/time/zoned-time.ts";
import { ORG_A_ID, ORG_B_ID } from "../../emulator/world/identities.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";

// GET /api/events through the whole chain: an EHR change in the emulator, its
// sync, a signed webhook to the BFF, the inbox, the processor, the stream.

let store: Store;
let harness: BffHarness;

beforeAll(async () => {
  store = await createStore();
  harness = await createBffHarness(store);
});

afterAll(async () => {
  await harness.close();
  await store.close();
});

async function openStream(token: string) {
  const response = await harness.bff.app.request("/api/events", { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/text\/event-stream/);
  const reader: ReadableStreamDefaultReader<Uint8Array> = (response.body ?? new ReadableStream<Uint8Array>()).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return {
    /** Resolves with the next `tandem` event, or null when the stream ends. */
    async next(): Promise<LiveEvent | null> {
      for (;;) {
        const match = /event: tandem\ndata: (.*)\n\n/.exec(buffer);
        if (match?.[1]) {
          buffer = buffer.slice((match.index ?? 0) + match[0].length);
          return z.parse(liveEvent, JSON.parse(match[1]));
        }
        const { value, done } = await reader.read();
        if (done) return null;
        buffer += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  };
}

async function deliverAndProcess() {
  await harness.emulator.emulator.dispatcher.idle();
  await harness.bff.processor.drain();
}

describe("GET /api/events", () => {
  it("streams a schedule change of the caller's organization after the EHR books a slot", async () => {
    const stream = await openStream(await harness.hostToken());
    const org = harness.emulator.emulator.state.org(ORG_A_ID);
    const facility = org?.ehr.facilities[0];
    await harness.emulator.sandbox("POST", `/ehr/${ORG_A_ID}/appointments`, {
      patientId: org?.ehr.patients[3]?.id,
      providerId: harness.userWithRole("Physician"),
      facilityId: facility?.id,
      startsAt: "2026-12-02T15:00:00.000Z",
      endsAt: "2026-12-02T15:30:00.000Z",
    });
    await harness.emulator.sandbox("POST", "/sync", { organizationId: ORG_A_ID });
    await deliverAndProcess();
    expect(await stream.next()).toEqual({ type: "schedule.changed", facilityId: facility?.id, date: "2026-12-02" });
    await stream.cancel();
  });

  it("closes the stream on uninstall, after saying so", async () => {
    const stream = await openStream(await harness.hostToken({ organizationId: ORG_B_ID }));
    await harness.emulator.sandbox("POST", `/installations/${ORG_B_ID}`, { status: "uninstalled" });
    await deliverAndProcess();
    expect(await stream.next()).toMatchObject({ type: "installation.changed", status: "uninstalled" });
    expect(await stream.next()).toBeNull();
    expect(harness.bff.hub.subscriberCount(ORG_B_ID)).toBe(0);
    await harness.emulator.sandbox("POST", `/installations/${ORG_B_ID}`, { status: "active" });
    await deliverAndProcess();
  });

  it("caps the streams one token may hold open: beyond, 429 with Retry-After; closing one frees its place", async () => {
    const token = await harness.hostToken({ organizationId: ORG_B_ID });
    const open = [await openStream(token), await openStream(token), await openStream(token)];
    const refused = await Promise.all(Array.from({ length: 20 }, async () => harness.bff.app.request("/api/events", { headers: { authorization: `Bearer ${token}` } })));
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.headers.get("retry-after")).toBe("30");
    }
    expect(await refused[0]?.json()).toMatchObject({ code: "rate_limited", retry_after_seconds: 30 });
    expect(harness.bff.hub.subscriberCount(ORG_B_ID)).toBe(3);
    await open[0]?.cancel();
    await expect.poll(() => harness.bff.hub.subscriberCount(ORG_B_ID)).toBe(2);
    const again = await openStream(token);
    for (const stream of [...open.slice(1), again]) await stream.cancel();
  });

  it("tells every stream of the user, on every tab, and no other user's, when one of their holds is made or released (issue 36 item 1)", async () => {
    const org = harness.emulator.emulator.state.org(ORG_A_ID);
    const physician = harness.userWithRole("Physician");
    const otherUser = org?.ehr.providers.find((provider) => !provider.hidden && provider.id !== physician)?.id;
    if (!otherUser) throw new Error("no second user");
    const [firstTab, secondTab, someoneElse] = [await openStream(await harness.hostToken()), await openStream(await harness.hostToken()), await openStream(await harness.hostToken({ userId: otherUser }))];
    const token = await harness.hostToken();
    const { appointmentTypes } = z.parse(appointmentTypesResponse, await (await harness.api("/api/appointment-types", { token })).json());
    const typeId = appointmentTypes[0]?.id ?? "";
    const day = new Date(harness.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    const found = await harness.api(`/api/slots?${new URLSearchParams({ appointmentTypeId: typeId, startDate: day, endDate: addDays(day, 6) }).toString()}`, { token });
    const slot = z.parse(slotSearchResponse, await found.json()).slots.find((candidate) => candidate.remainingCapacity > 0);
    if (!slot) throw new Error("no free slot");

    const held = await harness.api("/api/holds", { token: await harness.hostToken(), method: "POST", body: { providerId: slot.providerId, facilityId: slot.facilityId, startsAt: slot.startsAt, endsAt: slot.endsAt, appointmentTypeId: typeId } });
    expect(held.status).toBe(200);
    const { hold } = z.parse(holdResponse, await held.json());
    // Named by the user's person key (provider:<id>), which their streams carry.
    const changed = { type: "holds.changed", userId: `provider:${physician}` };
    expect(await firstTab.next()).toEqual(changed);
    expect(await secondTab.next()).toEqual(changed);
    expect((await harness.api(`/api/holds/${hold.id}`, { token: await harness.hostToken(), method: "DELETE" })).status).toBe(200);
    expect(await firstTab.next()).toEqual(changed);
    expect(await secondTab.next()).toEqual(changed);

    // The other user's stream heard neither: the next event it gets is the organization's next one.
    harness.bff.hub.publish(ORG_A_ID, { type: "directory.changed", resource: "providers" });
    expect(await someoneElse.next()).toEqual({ type: "directory.changed", resource: "providers" });
    for (const stream of [firstTab, secondTab, someoneElse]) await stream.cancel();
  });

  it("refuses a stream without a token", async () => {
    expect((await harness.bff.app.request("/api/events")).status).toBe(401);
  });
});
