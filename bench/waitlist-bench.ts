import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import * as z from "zod/mini";
import { slotSearchResponse } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { ORG_A_ID } from "../emulator/world/identities.ts";
import { dateWindow, seededSearchTarget } from "../server/hardening/testing/fault-matrix-support.ts";
import { openEngineStore, storeEngines } from "../server/hardening/testing/engine-store.ts";
import type { Store } from "../server/store/store.ts";
import { createBffHarness, type BffHarness } from "../server/testing/bff-harness.ts";
import { percentile, round } from "./measure.ts";

// Issue 38's figures: from a cancellation's event reaching the BFF (its
// webhook stored in the inbox) to `waitlist.offer` published on the live bus,
// (on PostgreSQL: back from NOTIFY at this process's hub, as a stream hears it),
// p50 and p95, with the parts (the processor's inbox claim, the freed slot's
// insert, the matcher's claim, the appointment read and the strong slots
// read, the offer's settle), and the upstream calls each freed slot cost,
// with 50 patients waiting for the same kind of slot at the facility. An
// in-process BFF against the in-process emulator (the harness the tests use,
// the emulator's default strong-read latency of 40 ms), on the embedded store
// and, with DATABASE_URL, on PostgreSQL. `npx tsx bench/waitlist-bench.ts`.

const WAITING = 50;
const appointmentCreated = z.object({ appointment: z.object({ id: z.string() }) });

interface Timings {
  inboxClaimMs: number;
  freedSlotInsertMs: number;
  matcherClaimMs: number;
  upstreamMs: number;
  settleMs: number;
}

/** The store with the calls a freed slot's path makes timed into `timings` (the last of each kind wins within a run). */
function timedStore(store: Store, timings: Timings, marks: { insertedAt: number | null }): Store {
  const time = async <T>(key: keyof Timings, call: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await call();
    } finally {
      timings[key] = performance.now() - start;
    }
  };
  return {
    ...store,
    inbox: {
      ...store.inbox,
      insert: async (entry) => {
        const start = performance.now();
        const stored = await store.inbox.insert(entry);
        if (stored && entry.eventType === "appointment.cancelled") marks.insertedAt = start;
        return stored;
      },
      claimUnprocessed: async (options) => {
        const start = performance.now();
        const claimed = await store.inbox.claimUnprocessed(options);
        if (claimed.length > 0) timings.inboxClaimMs = performance.now() - start;
        return claimed;
      },
    },
    waitlist: {
      ...store.waitlist,
      recordFreedSlot: (slot) => time("freedSlotInsertMs", () => store.waitlist.recordFreedSlot(slot)),
      claimFreedSlots: async (options) => {
        const start = performance.now();
        const claimed = await store.waitlist.claimFreedSlots(options);
        if (claimed.length > 0) timings.matcherClaimMs = performance.now() - start;
        return claimed;
      },
      settleOffered: (organizationId, id, offered) => time("settleMs", () => store.waitlist.settleOffered(organizationId, id, offered)),
    },
  };
}

async function freeSlots(h: BffHarness, typeId: string, facilityId: string): Promise<Slot[]> {
  const token = await h.hostToken({ userId: h.userWithRole("Front Desk") });
  const response = await h.api(`/api/slots?${new URLSearchParams({ appointmentTypeId: typeId, facilityIds: facilityId, ...dateWindow(14) }).toString()}`, { token });
  return z.parse(slotSearchResponse, await response.json()).slots.filter((slot) => slot.remainingCapacity === 1 && Date.parse(slot.startsAt) > h.now() + 86_400_000);
}

export async function runWaitlistBench(runs = 30): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for (const engine of storeEngines(process.env.DATABASE_URL)) {
    const opened = await openEngineStore(engine);
    const timings: Timings = { inboxClaimMs: 0, freedSlotInsertMs: 0, matcherClaimMs: 0, upstreamMs: 0, settleMs: 0 };
    const marks: { insertedAt: number | null } = { insertedAt: null };
    let upstreamStart: number | null = null;
    const h = await createBffHarness(timedStore(opened.store, timings, marks), {
      emulatorSettings: { strongReadLatencyMs: 40 },
      interceptUpstream: async (request, forward) => {
        const start = performance.now();
        const response = await forward(request);
        const url = new URL(request.url);
        // The match's reads: the appointment, then the strong slots read; their span is the upstream part.
        if (url.pathname.startsWith("/v1/appointments/")) upstreamStart = start;
        if (url.pathname === "/v2/schedule/slots" && url.searchParams.get("consistency") === "strong" && upstreamStart !== null) timings.upstreamMs = performance.now() - upstreamStart;
        return response;
      },
    });
    try {
      // On PostgreSQL the bus is LISTEN/NOTIFY: the offer reaches the hub (the streams) over it, as in production.
      await h.bff.bus.start();
      const { typeId, facilityId } = await seededSearchTarget(h);
      const slots = await freeSlots(h, typeId, facilityId);
      const length = slots[0] ? (Date.parse(slots[0].endsAt) - Date.parse(slots[0].startsAt)) / 60_000 : 30;
      const patients = h.emulator.emulator.state.org(ORG_A_ID)?.ehr.patients ?? [];
      for (let i = 0; i < WAITING; i += 1) {
        const token = await h.hostToken({ userId: h.userWithRole("Front Desk"), patientId: patients[20 + i]?.id ?? "" });
        const preferences = { appointmentTypeId: typeId, slotLengthMinutes: length, isNewPatient: false, facilityIds: [facilityId], providerIds: null, ...dateWindow(14), startsFrom: null, startsBefore: null, days: null, note: "" };
        const added = await h.api("/api/waitlist", { method: "POST", token, body: { preferences } });
        if (added.status !== 200) throw new Error(`adding to the waitlist answered ${added.status}: ${await added.text()}`);
      }
      const seen: { offeredAt: number | null } = { offeredAt: null };
      h.bff.hub.subscribe(ORG_A_ID, (event) => {
        if (event.type === "waitlist.offer") seen.offeredAt = performance.now();
      });
      // Read through functions: what the callbacks wrote since is not narrowed away.
      const offeredAt = () => seen.offeredAt;
      const insertedAt = () => marks.insertedAt;

      const total: number[] = [];
      const parts: Record<keyof Timings, number[]> = { inboxClaimMs: [], freedSlotInsertMs: [], matcherClaimMs: [], upstreamMs: [], settleMs: [] };
      const callsPerSlot: number[] = [];
      const strongPerSlot: number[] = [];
      for (const slot of slots.slice(0, runs + 2)) {
        const booked = await h.emulator.sandbox("POST", `/ehr/${ORG_A_ID}/appointments`, { patientId: patients[5]?.id, providerId: slot.providerId, facilityId: slot.facilityId, startsAt: slot.startsAt, endsAt: slot.endsAt, appointmentTypeId: typeId });
        const appointmentId = z.parse(appointmentCreated, booked.body).appointment.id;
        await h.emulator.sandbox("POST", "/sync", { organizationId: ORG_A_ID });
        await h.settle();
        await h.emulator.sandbox("PATCH", `/ehr/${ORG_A_ID}/appointments/${appointmentId}`, { status: "cancelled" });
        marks.insertedAt = null;
        seen.offeredAt = null;
        upstreamStart = null;
        const callsBefore = h.upstream.length;
        await h.emulator.sandbox("POST", "/sync", { organizationId: ORG_A_ID });
        await h.settle();
        await h.bff.waitlistMatcher.run();
        for (let tries = 0; offeredAt() === null && tries < 500; tries += 1) await new Promise((resolve) => setTimeout(resolve, 2));
        const received = insertedAt();
        const published = offeredAt();
        if (received === null || published === null) throw new Error("a cancellation gave no offer: the bench measures nothing");
        const calls = h.upstream.slice(callsBefore);
        callsPerSlot.push(calls.length);
        strongPerSlot.push(calls.filter((call) => call.url.includes("consistency=strong")).length);
        // The first two warm the caches and the JIT.
        if (callsPerSlot.length <= 2) continue;
        total.push(published - received);
        for (const key of Object.keys(parts) as (keyof Timings)[]) parts[key].push(timings[key]);
      }
      const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
      const summary = (values: number[]) => ({ p50: round(percentile(sorted(values), 50), 1), p95: round(percentile(sorted(values), 95), 1) });
      rows.push({
        bench: "waitlist-offer",
        engine: engine.name,
        runs: total.length,
        waiting: WAITING,
        receivedToOfferMs: summary(total),
        partsMs: Object.fromEntries(Object.entries(parts).map(([key, values]) => [key, summary(values)])),
        upstreamCallsPerFreedSlot: { max: Math.max(...callsPerSlot.slice(2)), median: percentile(sorted(callsPerSlot.slice(2)), 50) },
        strongReadsPerFreedSlot: { max: Math.max(...strongPerSlot.slice(2)) },
        loadAverage: loadavg().map((value) => round(value, 2)),
        note: "event stored in the inbox to waitlist.offer on the bus, in-process BFF and emulator (strong read latency 40 ms); 50 patients waiting for the same kind at the facility",
      });
    } finally {
      await h.close();
      await opened.close();
    }
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of await runWaitlistBench()) console.log(JSON.stringify(row));
}
