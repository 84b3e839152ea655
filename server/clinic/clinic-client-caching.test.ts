import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { IntakeThread } from "./intake-thread.ts";
import { createHarness, expectNoKeyLeak, ORG_A, type Harness } from "./testing/emulator-harness.ts";

// DESIGN.md "Upstream": coalesce identical in-flight reads; cache a read until
// sourceSyncedAt + maxStalenessSeconds (never longer, never notes). The
// emulator's maxStalenessSeconds is its sync interval plus a margin; the
// client reads the emulator's clock so that moving it moves both.

const SYNC_SECONDS = 30;
let harness: Harness;
let appointmentTypeId: string;
let noteId: string;

beforeAll(async () => {
  harness = createHarness({ syncIntervalSeconds: SYNC_SECONDS });
  const types = (await harness.client().read("GET /v3/appointment-types", { organizationId: ORG_A })).data();
  appointmentTypeId = types.appointmentTypes[0]?.id ?? "";
  noteId = (await harness.sandboxNotes(ORG_A))[0]?.id ?? "";
});
beforeEach(async () => {
  await harness.reset();
});
afterAll(() => {
  expectNoKeyLeak(harness);
});

/** The emulator's clock only moves forward here, so its mirror's sync time is never in its future. */
const setClock = (ms: number) => harness.sandbox("POST", "/clock", { now: new Date(ms).toISOString(), frozen: true });
const staleAt = (meta: { sourceSyncedAt: string; maxStalenessSeconds: number }) => Date.parse(meta.sourceSyncedAt) + meta.maxStalenessSeconds * 1000;
const newClient = () => harness.client({ now: () => harness.emulator.clock.now() });
const slotsCall = () => ({ organizationId: ORG_A, query: { appointmentTypeId, startDate: "2026-11-23", endDate: "2026-11-27" } });
const SLOTS = "/v2/schedule/slots";

describe("coalescing", () => {
  it("10 identical concurrent reads make one upstream call and share one answer", async () => {
    const client = newClient();
    const answers = await Promise.all(Array.from({ length: 10 }, () => client.read("GET /v1/appointments", { organizationId: ORG_A, query: { pageSize: 5 } })));
    expect(harness.count("GET", "/v1/appointments")).toBe(1);
    expect(client.stats()).toMatchObject({ upstreamRequests: 1, coalesced: 9 });
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]?.data().appointments.length).toBeGreaterThan(0);
    // Not cached: appointments carry no staleness meta, so the next read goes upstream.
    (await client.read("GET /v1/appointments", { organizationId: ORG_A, query: { pageSize: 5 } })).data();
    expect(harness.count("GET", "/v1/appointments")).toBe(2);
  });

  it("reads that differ in organization or query are not coalesced; strong reads never are", async () => {
    const client = newClient();
    const orgB = "8c4e2d19-7a36-4b5f-a0e1-9d8c7b6a5f42";
    await Promise.all([
      client.read("GET /v1/appointments", { organizationId: ORG_A, query: { pageSize: 5 } }).then((answer) => answer.data()),
      client.read("GET /v1/appointments", { organizationId: ORG_A, query: { pageSize: 6 } }).then((answer) => answer.data()),
      client.read("GET /v1/appointments", { organizationId: orgB, query: { pageSize: 5 } }).then((answer) => answer.data()),
    ]);
    expect(harness.count("GET", "/v1/appointments")).toBe(3);
    await Promise.all([client.read("GET /v2/schedule/slots", { ...slotsCall(), consistency: "strong" }).then((answer) => answer.data()), client.read("GET /v2/schedule/slots", { ...slotsCall(), consistency: "strong" }).then((answer) => answer.data())]);
    expect(harness.count("GET", SLOTS)).toBe(2);
  });

  it("a failure reaches every coalesced caller, and the next read starts afresh", async () => {
    const client = harness.client({ retry: { reads: 0 } });
    await harness.fault({ method: "GET", path: "/v1/appointments", status: 500, count: 1 });
    const results = await Promise.allSettled(Array.from({ length: 3 }, () => client.read("GET /v1/appointments", { organizationId: ORG_A }).then((answer) => answer.data())));
    expect(results.map((result) => result.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(harness.count("GET", "/v1/appointments")).toBe(1);
    await expect(client.read("GET /v1/appointments", { organizationId: ORG_A }).then((answer) => answer.data())).resolves.toBeDefined();
  });
});

describe("cache lifetime", () => {
  it("a slots read is served from the cache until sourceSyncedAt + maxStalenessSeconds, then read again", async () => {
    // Reading it near its bound would otherwise probe for a newer sync (refresh ahead, below).
    const client = harness.client({ now: () => harness.emulator.clock.now(), syncProbeEveryMs: 0 });
    const first = (await client.read("GET /v2/schedule/slots", slotsCall())).data();
    expect(first.meta).toMatchObject({ maxStalenessSeconds: SYNC_SECONDS + 2, strongConsistency: false });
    await setClock(staleAt(first.meta) - 1);
    expect((await client.read("GET /v2/schedule/slots", slotsCall())).data()).toEqual(first);
    expect(harness.count("GET", SLOTS)).toBe(1);
    await setClock(staleAt(first.meta));
    const second = (await client.read("GET /v2/schedule/slots", slotsCall())).data();
    expect(harness.count("GET", SLOTS)).toBe(2);
    // The emulator synced on that read: the new answer lives until its own bound.
    expect(second.meta.sourceSyncedAt).toBe(new Date(staleAt(first.meta)).toISOString());
    expect((await client.read("GET /v2/schedule/slots", slotsCall())).data()).toEqual(second);
    expect(client.stats().cacheHits).toBe(2);
  });

  it("availability templates follow the same bound; query order does not matter", async () => {
    const client = newClient();
    (await client.read("GET /v3/schedule/availability-templates", { organizationId: ORG_A, query: { startDate: "2026-11-23", endDate: "2026-11-29" } })).data();
    (await client.read("GET /v3/schedule/availability-templates", { organizationId: ORG_A, query: { endDate: "2026-11-29", startDate: "2026-11-23" } })).data();
    expect(harness.count("GET", "/v3/schedule/availability-templates")).toBe(1);
  });

  it("an answer already past its bound on the client's clock is not cached", async () => {
    const { meta } = (await newClient().read("GET /v2/schedule/slots", slotsCall())).data();
    const client = harness.client({ now: () => staleAt(meta) });
    (await client.read("GET /v2/schedule/slots", slotsCall())).data();
    (await client.read("GET /v2/schedule/slots", slotsCall())).data();
    expect(harness.count("GET", SLOTS)).toBe(3);
  });

  it("a read answered from the cache or joined never waits in its caller's queue; one sent to the service does, as do strong reads and reads past a caller's bound", async () => {
    const client = newClient();
    const queued: string[] = [];
    const queue = (name: string) => <T>(start: () => Promise<T>) => {
      queued.push(name);
      return start();
    };
    const [kept, joined] = await Promise.all([client.read("GET /v2/schedule/slots", slotsCall(), queue("first")), client.read("GET /v2/schedule/slots", slotsCall(), queue("joined"))]);
    expect(joined).toBe(kept);
    expect(await client.read("GET /v2/schedule/slots", slotsCall(), queue("hit"))).toBe(kept);
    expect(await client.read("GET /v2/schedule/slots", { ...slotsCall(), consistency: "strong" }, queue("strong"))).not.toBe(kept);
    const appointments = { organizationId: ORG_A, query: { pageSize: 5 }, cacheUntil: harness.emulator.clock.now() + 60_000 };
    const bounded = await client.read("GET /v1/appointments", appointments, queue("bounded"));
    expect(await client.read("GET /v1/appointments", appointments, queue("bounded hit"))).toBe(bounded);
    expect(await client.read("GET /v1/appointments", { organizationId: ORG_A, query: { pageSize: 5 } }, queue("unbounded"))).not.toBe(bounded);
    await setClock(staleAt(kept.data().meta));
    expect(await client.read("GET /v2/schedule/slots", slotsCall(), queue("expired"))).not.toBe(kept);
    expect(queued).toEqual(["first", "strong", "bounded", "unbounded", "expired"]);
    expect(harness.count("GET", SLOTS)).toBe(3);
    expect(client.stats().cacheHits).toBe(2);
  });

  it("strong reads bypass the cache and do not fill it", async () => {
    const client = newClient();
    const cached = (await client.read("GET /v2/schedule/slots", slotsCall())).data();
    const strong = (await client.read("GET /v2/schedule/slots", { ...slotsCall(), consistency: "strong" })).data();
    expect(strong.meta.strongConsistency).toBe(true);
    expect(harness.calls.at(-1)?.search.get("consistency")).toBe("strong");
    (await client.read("GET /v2/schedule/slots", { ...slotsCall(), consistency: "strong" })).data();
    expect(harness.count("GET", SLOTS)).toBe(3);
    expect((await client.read("GET /v2/schedule/slots", slotsCall())).data()).toEqual(cached);
  });

  it("notes and their images are never cached", async () => {
    const client = newClient();
    for (let i = 0; i < 2; i += 1) {
      (await client.read("GET /v1/notes/{noteId}", { organizationId: ORG_A, params: { noteId } })).data();
      (await client.read("GET /v3/notes/{noteId}/images", { organizationId: ORG_A, params: { noteId } })).data();
      (await client.read("GET /v1/patients", { organizationId: ORG_A })).data();
    }
    expect(harness.count("GET", `/v1/notes/${noteId}`)).toBe(2);
    expect(harness.count("GET", `/v3/notes/${noteId}/images`)).toBe(2);
    expect(harness.count("GET", "/v1/patients")).toBe(2);
    expect(client.stats().cacheHits).toBe(0);
  });

  it("appointments are cached only until the bound their caller gives, and a read without one neither uses nor fills the cache (ADR 0020)", async () => {
    const client = newClient();
    const call = { organizationId: ORG_A, query: { dateFrom: "2026-11-23", dateTo: "2026-11-29" } };
    const until = harness.emulator.clock.now() + 10_000;
    const first = (await client.read("GET /v1/appointments", { ...call, cacheUntil: until })).data();
    expect((await client.read("GET /v1/appointments", { ...call, cacheUntil: until })).data()).toEqual(first);
    expect(harness.count("GET", "/v1/appointments")).toBe(1);
    // Asked without a bound (a patient's appointments): the service's answer now.
    (await client.read("GET /v1/appointments", call)).data();
    expect(harness.count("GET", "/v1/appointments")).toBe(2);
    await setClock(until);
    (await client.read("GET /v1/appointments", { ...call, cacheUntil: until })).data();
    expect(harness.count("GET", "/v1/appointments")).toBe(3);
    // A bound already past is no bound.
    (await client.read("GET /v1/appointments", { ...call, cacheUntil: until })).data();
    expect(harness.count("GET", "/v1/appointments")).toBe(4);
  });

  it("pickers are cached for pickerTtlMs", async () => {
    const client = harness.client({ now: () => harness.emulator.clock.now(), pickerTtlMs: 5_000 });
    (await client.read("GET /v1/providers", { organizationId: ORG_A })).data();
    (await client.read("GET /v1/providers", { organizationId: ORG_A })).data();
    expect(harness.count("GET", "/v1/providers")).toBe(1);
    await setClock(harness.emulator.clock.now() + 5_000);
    (await client.read("GET /v1/providers", { organizationId: ORG_A })).data();
    expect(harness.count("GET", "/v1/providers")).toBe(2);
  });
});

describe("refresh ahead (refresh-ahead.ts)", () => {
  // Another week of the same organization: the read that shows the mirror's newer sync.
  const otherSlotsCall = () => ({ organizationId: ORG_A, query: { appointmentTypeId, startDate: "2026-11-30", endDate: "2026-12-04" } });
  const afterNextSync = (meta: { sourceSyncedAt: string }) => Date.parse(meta.sourceSyncedAt) + SYNC_SECONDS * 1000 + 1_000;
  // The reads below come near their bound, where a read would also probe for a newer sync itself (the last test): these show what other answers start.
  const clientShownSyncs = () => harness.client({ now: () => harness.emulator.clock.now(), syncProbeEveryMs: 0 });

  it("once a newer sync shows, a search users read is read again in the background, and the next read is served the newer answer from the cache", async () => {
    const client = clientShownSyncs();
    const first = (await client.read("GET /v2/schedule/slots", slotsCall())).data();
    await setClock(afterNextSync(first.meta));
    // Still within the first answer's bound (the margin), and a user reads it from the cache.
    expect(staleAt(first.meta)).toBeGreaterThan(harness.emulator.clock.now());
    expect((await client.read("GET /v2/schedule/slots", slotsCall())).data()).toEqual(first);
    // Another search of the organization meets the mirror's newer sync.
    (await client.read("GET /v2/schedule/slots", otherSlotsCall())).data();
    expect(client.stats().refreshedAhead).toBe(1);
    // Reads meanwhile are served the old answer, then the refreshed one, all from the cache.
    await vi.waitFor(async () => expect(((await client.read("GET /v2/schedule/slots", slotsCall())).data()).meta.sourceSyncedAt).not.toBe(first.meta.sourceSyncedAt));
    const next = (await client.read("GET /v2/schedule/slots", slotsCall())).data();
    expect(Date.parse(next.meta.sourceSyncedAt)).toBeGreaterThan(Date.parse(first.meta.sourceSyncedAt));
    expect(harness.count("GET", SLOTS)).toBe(3);
    expect(client.stats().refreshedAhead).toBe(1);
  });

  it("takes a newer sync shown by another route as a hint: the search users read is probed, and refreshed when it synced too", async () => {
    const client = clientShownSyncs();
    const first = (await client.read("GET /v2/schedule/slots", slotsCall())).data();
    await setClock(afterNextSync(first.meta));
    expect((await client.read("GET /v2/schedule/slots", slotsCall())).data()).toEqual(first);
    // Only an availability week meets the mirror's newer sync; no slot search misses.
    (await client.read("GET /v3/schedule/availability-templates", { organizationId: ORG_A, query: { startDate: "2026-11-23", endDate: "2026-11-29" } })).data();
    expect(client.stats().refreshedAhead).toBe(1);
    await vi.waitFor(async () => expect(((await client.read("GET /v2/schedule/slots", slotsCall())).data()).meta.sourceSyncedAt).not.toBe(first.meta.sourceSyncedAt));
    expect(harness.count("GET", SLOTS)).toBe(2);
  });

  it("takes a refresh's answer in on the intake thread, as it does a user's own read", async () => {
    const thread = new IntakeThread();
    const calls = vi.spyOn(thread, "takeIn").mock.calls;
    const client = harness.client({ now: () => harness.emulator.clock.now(), intakeThread: thread, intakeThreadMinBytes: 0 });
    try {
      const first = (await client.read("GET /v2/schedule/slots", slotsCall())).data();
      await setClock(afterNextSync(first.meta));
      (await client.read("GET /v2/schedule/slots", slotsCall())).data();
      (await client.read("GET /v2/schedule/slots", otherSlotsCall())).data();
      await vi.waitFor(async () => expect(((await client.read("GET /v2/schedule/slots", slotsCall())).data()).meta.sourceSyncedAt).not.toBe(first.meta.sourceSyncedAt), { timeout: 10_000, interval: 50 });
      expect(client.stats().refreshedAhead).toBe(1);
      expect(calls.map(([route]) => route)).toEqual(["GET /v2/schedule/slots", "GET /v2/schedule/slots", "GET /v2/schedule/slots"]);
    } finally {
      client.close();
    }
  });

  it("gives a user whose entry expired the refresh on its way, not a read of their own", async () => {
    const thread = new IntakeThread();
    const calls = vi.spyOn(thread, "takeIn").mock.calls;
    const client = harness.client({ now: () => harness.emulator.clock.now(), intakeThread: thread, intakeThreadMinBytes: 0 });
    try {
      const first = (await client.read("GET /v2/schedule/slots", slotsCall())).data();
      await setClock(afterNextSync(first.meta));
      (await client.read("GET /v2/schedule/slots", slotsCall())).data();
      // The refresh's answer is held until the user's entry has expired and the user asked again.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      harness.rewrite = async (request, response) => {
        if (new URL(request.url).searchParams.get("startDate") === slotsCall().query.startDate) await held;
        return response;
      };
      (await client.read("GET /v2/schedule/slots", otherSlotsCall())).data();
      expect(client.stats().refreshedAhead).toBe(1);
      await setClock(staleAt(first.meta));
      const joined = client.read("GET /v2/schedule/slots", slotsCall()).then((answer) => answer.data());
      await vi.waitFor(() => expect(client.stats().coalesced).toBe(1));
      release();
      expect(Date.parse((await joined).meta.sourceSyncedAt)).toBeGreaterThan(Date.parse(first.meta.sourceSyncedAt));
      expect(harness.count("GET", SLOTS)).toBe(3);
      expect(calls).toHaveLength(3);
    } finally {
      client.close();
    }
  });

  it("a search nobody read since it was fetched is left to expire", async () => {
    const client = newClient();
    const first = (await client.read("GET /v2/schedule/slots", slotsCall())).data();
    await setClock(afterNextSync(first.meta));
    (await client.read("GET /v2/schedule/slots", otherSlotsCall())).data();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.stats().refreshedAhead).toBe(0);
    expect(harness.count("GET", SLOTS)).toBe(2);
  });

  it("where no other read shows the newer sync, a read near the bound probes for it, and the search is refreshed before it expires", async () => {
    const client = newClient();
    const first = (await client.read("GET /v2/schedule/slots", slotsCall())).data();
    // In the last quarter of its 40 s, after the mirror's next sync: the user's read is served from the cache and probes.
    await setClock(afterNextSync(first.meta));
    expect((await client.read("GET /v2/schedule/slots", slotsCall())).data()).toEqual(first);
    await vi.waitFor(async () => expect(((await client.read("GET /v2/schedule/slots", slotsCall())).data()).meta.sourceSyncedAt).not.toBe(first.meta.sourceSyncedAt));
    expect(harness.count("GET", SLOTS)).toBe(2);
    expect(client.stats().refreshedAhead).toBe(1);
  });

  it("with a bound no longer than the sync interval, only a probe is sent: the newer sync shows only once the entries expired", async () => {
    const tight = createHarness({ syncIntervalSeconds: SYNC_SECONDS, stalenessMarginSeconds: 0 });
    const client = tight.client({ now: () => tight.emulator.clock.now() });
    const call = slotsCall();
    const first = (await client.read("GET /v2/schedule/slots", call)).data();
    await tight.sandbox("POST", "/clock", { now: new Date(Date.parse(first.meta.sourceSyncedAt) + SYNC_SECONDS * 1000 - 1).toISOString(), frozen: true });
    expect((await client.read("GET /v2/schedule/slots", call)).data()).toEqual(first);
    await tight.sandbox("POST", "/clock", { now: new Date(Date.parse(first.meta.sourceSyncedAt) + SYNC_SECONDS * 1000).toISOString(), frozen: true });
    (await client.read("GET /v2/schedule/slots", otherSlotsCall())).data();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The read just before the bound probed for a newer sync (there was none yet), and nothing followed.
    expect(client.stats().refreshedAhead).toBe(1);
  });
});

describe("invalidate", () => {
  it("drops an organization's reads by route prefix, or all of them", async () => {
    const client = newClient();
    const read = async () => {
      await client.read("GET /v2/schedule/slots", slotsCall());
      await client.read("GET /v1/facilities", { organizationId: ORG_A });
    };
    await read();
    client.invalidate(ORG_A, { routePrefix: "GET /v2/schedule/slots" });
    await read();
    expect([harness.count("GET", SLOTS), harness.count("GET", "/v1/facilities")]).toEqual([2, 1]);
    client.invalidate(ORG_A.toUpperCase());
    await read();
    expect([harness.count("GET", SLOTS), harness.count("GET", "/v1/facilities")]).toEqual([3, 2]);
  });

  it("a read in flight when the cache is invalidated is neither joined nor stored", async () => {
    const client = newClient();
    const before = client.read("GET /v2/schedule/slots", slotsCall()).then((answer) => answer.data());
    client.invalidate(ORG_A, { routePrefix: "GET /v2/schedule/slots" });
    const after = client.read("GET /v2/schedule/slots", slotsCall()).then((answer) => answer.data());
    await Promise.all([before, after]);
    expect(harness.count("GET", SLOTS)).toBe(2);
    expect(client.stats().coalesced).toBe(0);
    // `after` started after the invalidation, so its answer is cached.
    (await client.read("GET /v2/schedule/slots", slotsCall())).data();
    expect(harness.count("GET", SLOTS)).toBe(2);
  });

  it("by facility and date, drops only the reads whose request covers that facility and day (a day's margin either side of a local window); others stay", async () => {
    const client = newClient();
    const facilities = (await client.read("GET /v1/facilities", { organizationId: ORG_A })).data().facilities.map((facility) => facility.id);
    const [first = "", second = ""] = facilities;
    const week = (facilityIds: string | undefined, startDate = "2026-11-23", endDate = "2026-11-27") => ({ organizationId: ORG_A, query: { appointmentTypeId, startDate, endDate, ...(facilityIds !== undefined && { facilityIds }) } });
    const calls = { first: week(first), second: week(second), both: week(`${first},${second}`), every: week(undefined), later: week(first, "2026-12-07", "2026-12-11") };
    const readAll = async () => {
      const answers: Record<string, object> = {};
      for (const [name, call] of Object.entries(calls)) answers[name] = await client.read("GET /v2/schedule/slots", call);
      return answers;
    };
    const before = await readAll();
    // A UTC day just past the window's last local day may still be that local day somewhere.
    client.invalidate(ORG_A, { routePrefix: "GET /v2/schedule/slots", facilityId: first, date: "2026-11-28" });
    const after = await readAll();
    const dropped = Object.keys(calls).filter((name) => after[name] !== before[name]);
    expect(dropped).toEqual(["first", "both", "every"]);
    client.invalidate(ORG_A, { routePrefix: "GET /v2/schedule/slots", facilityId: first, date: "2026-11-29" });
    const again = await readAll();
    expect(Object.keys(calls).filter((name) => again[name] !== after[name])).toEqual([]);
  });
});
