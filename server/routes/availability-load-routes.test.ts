import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { availabilityResponse } from "#contract/app-api/availability.ts";
import {
  availabilityLoadMeta,
  availabilityLoadResponse,
  bandLoad,
  LOAD_WINDOW_TOO_BUSY_CODE,
  MAX_LOAD_APPOINTMENT_PAGES,
  providerDayLoad,
  type AvailabilityLoadResponse,
  type BandLoad,
} from "#contract/app-api/availability-load.ts";
import { appErrorBody } from "#contract/app-api/errors.ts";
import { isSameId } from "#contract/ids.ts";
import { addDays } from "#contract/time/zoned-time.ts";
import { ORG_A_ID } from "../../emulator/world/identities.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";

// GET /api/availability/load against the emulator in-process
// (docs/decisions/0020-availability-booked-load.md): the bands of a
// facility's week with their places, taken from the appointments list; a
// handful of upstream calls, then none until the staleness bound or an
// appointment event; an EHR booking and its cancellation seen after the
// webhook, and after the bound without one. Clocks start pinned at the
// harness's instant (Tuesday 2026-11-17 14:00 UTC).

const NEXT_WEEK = { startDate: "2026-11-23", endDate: "2026-11-29" };

let store: Store;
let harness: BffHarness;
let facilityId: string;

const org = () => {
  const state = harness.emulator.emulator.state.org(ORG_A_ID);
  if (!state) throw new Error("org A is not seeded");
  return state;
};

beforeAll(async () => {
  store = await createStore();
  harness = await createBffHarness(store);
  const facility = org().ehr.facilities.find((candidate) => candidate.timezone === "America/New_York" && candidate.isVisible);
  if (!facility) throw new Error("org A has no visible New York facility");
  facilityId = facility.id;
});

afterAll(async () => {
  await harness.close();
  await store.close();
});

async function readLoad(query: Record<string, string> = {}, token?: string): Promise<AvailabilityLoadResponse> {
  const response = await harness.api(`/api/availability/load?${new URLSearchParams({ facilityId, ...NEXT_WEEK, ...query }).toString()}`, { token: token ?? (await harness.hostToken()) });
  expect(response.status).toBe(200);
  return z.parse(availabilityLoadResponse, await response.json());
}

const upstreamCalls = (path: string) => harness.upstreamRequests.filter((line) => new URL(line.split(" ")[1] ?? "").pathname === path).length;
const sameBand = (a: Pick<BandLoad, "templateId" | "startsAt">, b: Pick<BandLoad, "templateId" | "startsAt">) => a.templateId === b.templateId && Date.parse(a.startsAt) === Date.parse(b.startsAt);

/** The service sees the EHR at its next sync; its appointment events reach the BFF, which processes them. */
async function syncAndDeliver(): Promise<void> {
  await harness.emulator.sandbox("POST", "/sync", { organizationId: ORG_A_ID });
  await harness.emulator.emulator.dispatcher.idle();
  await harness.bff.processor.drain();
}

/**
 * A band of next week that no other band of its provider overlaps, and one
 * of its positions no booking of that provider touches: a booking of one
 * interval there takes exactly one place of that band.
 */
function freePosition(load: AvailabilityLoadResponse): { band: BandLoad; startsAt: string; endsAt: string } {
  const busy = [...org().ehr.appointments].filter((appointment) => appointment.status !== "cancelled" && appointment.status !== "no_show");
  for (const band of load.bands) {
    const overlapped = load.bands.some((other) => other !== band && other.providerId === band.providerId && Date.parse(other.startsAt) < Date.parse(band.endsAt) && Date.parse(band.startsAt) < Date.parse(other.endsAt));
    if (overlapped || band.concurrency < 1) continue;
    const intervalMs = band.slotIntervalMinutes * 60_000;
    for (let index = 0; index < band.positions; index += 1) {
      const startMs = Date.parse(band.startsAt) + index * intervalMs;
      const endMs = startMs + intervalMs;
      // A place still to come: the EHR books ahead, and it counts in the band's `open` too.
      if (startMs < harness.now()) continue;
      const touched = busy.some((appointment) => isSameId(appointment.providerId, band.providerId) && Date.parse(appointment.scheduledStartDate) < endMs && startMs < Date.parse(appointment.scheduledEndDate));
      if (!touched) return { band, startsAt: new Date(startMs).toISOString(), endsAt: new Date(endMs).toISOString() };
    }
  }
  throw new Error("the pinned seed has no free position ahead in a band without overlap next week");
}

function dayOf(load: AvailabilityLoadResponse, band: BandLoad) {
  return load.days.find((day) => day.providerId === band.providerId && day.date === band.date);
}

describe("GET /api/availability/load", () => {
  it("answers every band of the facility's week with its places, taken and remaining, day totals per provider, and how fresh it is", async () => {
    const before = harness.upstreamRequests.length;
    const startedAt = harness.now();
    const load = await readLoad();
    const availability = z.parse(availabilityResponse, await (await harness.api(`/api/availability?${new URLSearchParams({ facilityId, ...NEXT_WEEK }).toString()}`, { token: await harness.hostToken() })).json());

    // The same bands as the availability read, keyed as the SPA keys them.
    expect(load.bands).toHaveLength(availability.instances.length);
    for (const instance of availability.instances) expect(load.bands.some((band) => sameBand(band, instance) && band.endsAt === instance.endsAt && band.concurrency === instance.concurrency)).toBe(true);
    for (const band of load.bands) {
      const template = availability.templates.find((candidate) => candidate.id === band.templateId);
      expect(band.slotIntervalMinutes).toBe(template?.slotIntervalMinutes);
      expect(band.positions).toBe(Math.floor((Date.parse(band.endsAt) - Date.parse(band.startsAt)) / (band.slotIntervalMinutes * 60_000)));
      expect(band.capacity).toBe(band.concurrency * band.positions);
      expect(band.taken + band.remaining).toBe(band.capacity);
      // Next week is wholly ahead of the pinned clock: all that remains is still open.
      expect(band.open).toBe(band.remaining);
    }
    // The seeded clinic is busy next week.
    expect(load.bands.reduce((sum, band) => sum + band.taken, 0)).toBeGreaterThan(0);
    for (const day of load.days) {
      const bands = load.bands.filter((band) => band.providerId === day.providerId && band.date === day.date);
      expect(day.capacity).toBe(bands.reduce((sum, band) => sum + band.capacity, 0));
      expect(day.taken).toBe(bands.reduce((sum, band) => sum + band.taken, 0));
      expect(day.open).toBe(bands.reduce((sum, band) => sum + band.open, 0));
      expect(day.date >= NEXT_WEEK.startDate && day.date <= NEXT_WEEK.endDate).toBe(true);
    }

    expect(load.meta).toMatchObject({ ...availability.meta, takenFrom: "appointments" });
    expect(Date.parse(load.meta.computedAt)).toBeGreaterThanOrEqual(startedAt);
    expect(Date.parse(load.meta.computedAt)).toBeLessThanOrEqual(harness.now());

    // The availability read and a few pages of the facility's appointments, not a call per provider or day.
    const sent = harness.upstreamRequests.slice(before).filter((line) => !line.includes("/v1/installations"));
    const pages = sent.filter((line) => line.includes("/v1/appointments"));
    expect(sent.filter((line) => line.includes("/v3/schedule/availability-templates"))).toHaveLength(1);
    expect(pages.length).toBeGreaterThanOrEqual(1);
    expect(pages.length).toBeLessThanOrEqual(4);
    const appointmentsQuery = new URL(pages[0]?.split(" ")[1] ?? "").searchParams;
    expect(Object.fromEntries(appointmentsQuery)).toMatchObject({ facilityId, dateFrom: "2026-11-22", dateTo: "2026-11-30", pageSize: "100", sortBy: "scheduledStartDate" });
  });

  it("serves a repeat from the cache, with or without a provider, until the availability read's staleness bound", async () => {
    const first = await readLoad();
    const provider = first.bands[0]?.providerId ?? "";
    const calls = () => [upstreamCalls("/v3/schedule/availability-templates"), upstreamCalls("/v1/appointments")];
    const before = calls();
    expect(await readLoad()).toMatchObject({ bands: first.bands, days: first.days });
    expect(calls()).toEqual(before);

    // Narrowed to one provider: its own availability read (the SPA never asks for one: it narrows the facility's load itself); the facility's appointment pages are shared.
    const one = await readLoad({ providerId: provider });
    expect(one.bands.length).toBeGreaterThan(0);
    expect(one.bands.every((band) => band.providerId === provider)).toBe(true);
    expect(one.bands).toEqual(first.bands.filter((band) => band.providerId === provider));
    expect(one.days).toEqual(first.days.filter((day) => day.providerId === provider));
    expect(calls()).toEqual([(before[0] ?? 0) + 1, before[1]]);

    harness.advanceClocks(first.meta.maxStalenessSeconds + 1);
    await readLoad();
    const after = calls();
    expect(after[0]).toBe((before[0] ?? 0) + 2);
    expect(after[1]).toBeGreaterThan(before[1] ?? 0);
  });

  it("counts as open only the free places still to come: none of a band already over, the later part of one under way", async () => {
    const computedAt = harness.now();
    const thisWeek = { startDate: addDays(NEXT_WEEK.startDate, -7), endDate: addDays(NEXT_WEEK.endDate, -7) };
    const load = await readLoad(thisWeek);
    const over = load.bands.filter((band) => Date.parse(band.endsAt) <= computedAt);
    const underWay = load.bands.filter((band) => Date.parse(band.startsAt) < computedAt && computedAt < Date.parse(band.endsAt));
    const ahead = load.bands.filter((band) => Date.parse(band.startsAt) >= computedAt);
    expect(over.length).toBeGreaterThan(0);
    expect(underWay.length).toBeGreaterThan(0);
    expect(ahead.length).toBeGreaterThan(0);
    for (const band of over) expect(band.open).toBe(0);
    for (const band of ahead) expect(band.open).toBe(band.remaining);
    for (const band of underWay) {
      const intervalMs = band.slotIntervalMinutes * 60_000;
      const positionsAhead = band.positions - Math.ceil((computedAt - Date.parse(band.startsAt)) / intervalMs);
      expect(band.open).toBeLessThanOrEqual(Math.min(band.remaining, positionsAhead * band.concurrency));
    }
    expect(underWay.some((band) => band.open < band.remaining)).toBe(true);
    for (const day of load.days) {
      const bands = load.bands.filter((band) => band.providerId === day.providerId && band.date === day.date);
      expect(day.open).toBe(bands.reduce((sum, band) => sum + band.open, 0));
    }
  });

  it("shows one more place taken after an EHR booking reaches the BFF as appointment.created, and one fewer after its cancellation", async () => {
    const before = await readLoad();
    const { band, startsAt, endsAt } = freePosition(before);
    const patient = org().ehr.patients[5];
    const booked = await harness.emulator.sandbox("POST", `/ehr/${ORG_A_ID}/appointments`, { patientId: patient?.id, providerId: band.providerId, facilityId, startsAt, endsAt });
    expect(booked.status).toBe(201);
    const appointmentId = z.parse(z.object({ appointment: z.object({ id: z.string() }) }), booked.body).appointment.id;

    // Until the service has synced and said so, the cached answer stands.
    expect((await readLoad()).bands.find((candidate) => sameBand(candidate, band))).toEqual(band);

    await syncAndDeliver();
    const pagesBefore = upstreamCalls("/v1/appointments");
    const after = await readLoad();
    // The event dropped the cached appointment pages: they were read again.
    expect(upstreamCalls("/v1/appointments")).toBeGreaterThan(pagesBefore);
    const bookedBand = after.bands.find((candidate) => sameBand(candidate, band));
    expect(bookedBand).toEqual({ ...band, taken: band.taken + 1, remaining: band.remaining - 1, open: band.open - 1, bookings: band.bookings + 1 });
    expect(dayOf(after, band)).toMatchObject({ taken: (dayOf(before, band)?.taken ?? 0) + 1, capacity: dayOf(before, band)?.capacity });

    const cancelled = await harness.emulator.sandbox("PATCH", `/ehr/${ORG_A_ID}/appointments/${appointmentId}`, { status: "cancelled" });
    expect(cancelled.status).toBe(200);
    await syncAndDeliver();
    const afterCancel = await readLoad();
    expect(afterCancel.bands.find((candidate) => sameBand(candidate, band))).toEqual(band);
    expect(dayOf(afterCancel, band)).toEqual(dayOf(before, band));
  });

  it("a booking shows once the staleness bound has passed, without waiting for its event", async () => {
    const before = await readLoad();
    const { band, startsAt, endsAt } = freePosition(before);
    const booked = await harness.emulator.sandbox("POST", `/ehr/${ORG_A_ID}/appointments`, { patientId: org().ehr.patients[6]?.id, providerId: band.providerId, facilityId, startsAt, endsAt });
    expect(booked.status).toBe(201);
    // Both clocks past the bound: the service syncs on the next read, and the BFF's cached reads have expired.
    harness.advanceClocks(before.meta.maxStalenessSeconds + 1);
    const after = await readLoad();
    expect(after.bands.find((candidate) => sameBand(candidate, band))).toMatchObject({ taken: band.taken + 1, remaining: band.remaining - 1 });
    expect(Date.parse(after.meta.sourceSyncedAt)).toBeGreaterThan(Date.parse(before.meta.sourceSyncedAt));
  });

  it("carries counts only: no field beyond the contract's, no patient's or appointment's id", async () => {
    const response = await harness.api(`/api/availability/load?${new URLSearchParams({ facilityId, ...NEXT_WEEK }).toString()}`, { token: await harness.hostToken() });
    const text = await response.text();
    const raw = z.parse(z.object({ bands: z.array(z.record(z.string(), z.unknown())), days: z.array(z.record(z.string(), z.unknown())), meta: z.record(z.string(), z.unknown()) }), JSON.parse(text));
    expect(Object.keys(raw).sort()).toEqual(["bands", "days", "meta"]);
    expect(new Set(raw.bands.flatMap((band) => Object.keys(band)))).toEqual(new Set(Object.keys(bandLoad.shape)));
    expect(new Set(raw.days.flatMap((day) => Object.keys(day)))).toEqual(new Set(Object.keys(providerDayLoad.shape)));
    expect(new Set(Object.keys(raw.meta))).toEqual(new Set(Object.keys(availabilityLoadMeta.shape)));
    const counted = org().ehr.appointments.filter((appointment) => isSameId(appointment.facilityId, facilityId) && appointment.scheduledStartDate >= "2026-11-23");
    expect(counted.length).toBeGreaterThan(0);
    for (const appointment of counted) {
      expect(text).not.toContain(appointment.patientId);
      expect(text).not.toContain(appointment.id);
    }
  });

  it("answers the front desk too: every role reads schedules", async () => {
    const load = await readLoad({}, await harness.hostToken({ userId: harness.userWithRole("Front Desk") }));
    expect(load.bands.length).toBeGreaterThan(0);
  });

  it("answers an empty week with no bands and no days, without reading appointments", async () => {
    const closed = org().ehr.facilities.find((candidate) => !org().ehr.templates.some((template) => isSameId(template.facilityId, candidate.id)));
    if (!closed) throw new Error("org A has no facility without templates");
    const pagesBefore = upstreamCalls("/v1/appointments");
    const load = await readLoad({ facilityId: closed.id });
    expect(load).toMatchObject({ bands: [], days: [] });
    expect(upstreamCalls("/v1/appointments")).toBe(pagesBefore);
  });

  it.each([
    [{ facilityId: "" }, /facilityId/],
    [{ startDate: "2026-11-29", endDate: "2026-11-23" }, /endDate: must not be before startDate/],
    [{ startDate: "2026-01-01", endDate: "2027-06-01" }, /at most 366 days/],
    [{ startDate: "23/11/2026" }, /startDate/],
    [{ providerId: "dr-okafor" }, /providerId/],
  ])("refuses %j naming the field", async (query, message) => {
    const response = await harness.api(`/api/availability/load?${new URLSearchParams({ facilityId, ...NEXT_WEEK, ...query }).toString()}`, { token: await harness.hostToken() });
    expect(response.status).toBe(400);
    expect(z.parse(appErrorBody, await response.json()).message).toMatch(message);
  });

  it("refuses without a token", async () => {
    expect((await harness.api(`/api/availability/load?${new URLSearchParams({ facilityId, ...NEXT_WEEK }).toString()}`)).status).toBe(401);
  });
});

describe("GET /api/availability/load on a window with more appointments than one answer counts", () => {
  let busy: BffHarness;
  let busyStore: Store;
  const appointmentPages: string[] = [];

  beforeAll(async () => {
    busyStore = await createStore();
    // The service says the list runs to 25 pages.
    busy = await createBffHarness(busyStore, {
      interceptUpstream: async (request, forward) => {
        const response = await forward(request);
        if (new URL(request.url).pathname !== "/v1/appointments") return response;
        appointmentPages.push(request.url);
        const body = z.parse(z.object({ code: z.string(), data: z.looseObject({ pagination: z.looseObject({}) }) }), await response.json());
        const pages = MAX_LOAD_APPOINTMENT_PAGES + 5;
        return Response.json({ ...body, data: { ...body.data, pagination: { ...body.data.pagination, totalPages: pages, totalCount: pages * 100 } } });
      },
    });
  });

  afterAll(async () => {
    await busy.close();
    await busyStore.close();
  });

  it("refuses with 400 window_too_busy after reading only the first page", async () => {
    const response = await busy.api(`/api/availability/load?${new URLSearchParams({ facilityId, ...NEXT_WEEK }).toString()}`, { token: await busy.hostToken() });
    expect(response.status).toBe(400);
    const body = z.parse(appErrorBody, await response.json());
    expect(body.code).toBe(LOAD_WINDOW_TOO_BUSY_CODE);
    expect(body.message).toMatch(/endDate: the window holds 2500 appointments/);
    expect(appointmentPages).toHaveLength(1);
  });
});
