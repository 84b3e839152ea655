import { randomUUID } from "node:crypto";
import { createConnection, createServer, type AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRedisAnswerStore, type KeptAnswer, type SharedAnswerStore } from "./shared-answer-store.ts";
import { createHarness, expectNoKeyLeak, ORG_A, type Harness } from "./testing/emulator-harness.ts";

// Issue 37 item 5: with REDIS_URL, BFF processes share the answers they read,
// so N processes do not read one answer N times. Each client here stands for
// a process; they share one store, as processes share one Redis. The same
// cases run on a store in memory (the rules) and, with REDIS_URL, on Redis.

const redisUrl = process.env.REDIS_URL;

/** The store's rules in memory: answers under the organization's generation, a change moves it on. */
function memoryAnswerStore(): SharedAnswerStore {
  const generations = new Map<string, number>();
  const kept = new Map<string, KeptAnswer>();
  const generationOf = (organization: string) => String(generations.get(organization) ?? 0);
  return {
    look: (organization, key) => Promise.resolve({ generation: generationOf(organization), kept: kept.get(`${organization}:${generationOf(organization)}:${key}`) ?? null }),
    keep(organization, key, generation, answer) {
      kept.set(`${organization}:${generation}:${key}`, answer);
      return Promise.resolve();
    },
    dropAll(organization) {
      generations.set(organization, (generations.get(organization) ?? 0) + 1);
      return Promise.resolve();
    },
    close() {},
  };
}

const stores: [string, () => SharedAnswerStore][] = [["in memory", memoryAnswerStore]];
// A namespace of its own per store: runs on one Redis never share answers.
if (redisUrl !== undefined) stores.push(["in Redis (REDIS_URL)", () => createRedisAnswerStore({ url: redisUrl, namespace: `test ${randomUUID()}` })]);

let harness: Harness;
let appointmentTypeId: string;

beforeAll(async () => {
  harness = createHarness();
  appointmentTypeId = (await harness.client().read("GET /v3/appointment-types", { organizationId: ORG_A })).data().appointmentTypes[0]?.id ?? "";
});
beforeEach(async () => {
  await harness.reset();
});
afterAll(() => {
  expectNoKeyLeak(harness);
});

const SLOTS = "/v2/schedule/slots";
const slotsCall = () => ({ organizationId: ORG_A, query: { appointmentTypeId, startDate: "2026-11-23", endDate: "2026-11-27" } });

describe.each(stores)("answers shared by the processes, %s", (_name, openStore) => {
  /** Processes sharing one store; `kept()` waits for what they are keeping in it (after their answers). */
  function processes(count: number) {
    const store = openStore();
    const keeping: Promise<void>[] = [];
    let drops = 0;
    const watched: SharedAnswerStore = {
      ...store,
      keep: (...args) => {
        const done = store.keep(...args);
        keeping.push(done);
        return done;
      },
      dropAll: (organization) => {
        drops += 1;
        return store.dropAll(organization);
      },
    };
    const clients = Array.from({ length: count }, () => harness.client({ now: () => harness.emulator.clock.now(), sharedAnswers: watched, syncProbeEveryMs: 0 }));
    // As the live-event bus does: the first process learns the change from the service, the others from it.
    const change = () => clients.forEach((client, index) => client.invalidate(ORG_A, {}, index === 0 ? "the service" : "another process"));
    const kept = () => Promise.all(keeping);
    return { clients, change, kept, drops: () => drops, close: () => clients.forEach((client) => client.close()) };
  }

  it("a slot search one process read is answered to the others without the service", async () => {
    const { clients, kept, close } = processes(3);
    const [first, second, third] = clients;
    if (!first || !second || !third) throw new Error("three processes");
    try {
      const answer = (await first.read("GET /v2/schedule/slots", slotsCall())).data();
      // Kept in the store after the answer is given.
      await kept();
      expect((await second.read("GET /v2/schedule/slots", slotsCall())).data()).toEqual(answer);
      expect((await third.read("GET /v2/schedule/slots", slotsCall())).data()).toEqual(answer);
      expect(harness.count("GET", SLOTS)).toBe(1);
      expect(third.stats()).toMatchObject({ sharedAnswerHits: 1, upstreamRequests: 0, benchMechanisms: { "shared-answers": { on: true, uses: 1 } } });
    } finally {
      close();
    }
  });

  it("after a change no process is answered what was kept before it, nor what a read begun before it brought", async () => {
    const { clients, change, kept, close } = processes(2);
    const [first, second] = clients;
    if (!first || !second) throw new Error("two processes");
    try {
      await first.read("GET /v2/schedule/slots", slotsCall());
      await kept();
      change();
      await second.read("GET /v2/schedule/slots", slotsCall());
      expect(harness.count("GET", SLOTS)).toBe(2);

      // A read on its way when a change comes is kept by nobody.
      await harness.fault({ method: "GET", path: SLOTS, latencyMs: 300, count: 1 });
      const slow = first.read("GET /v2/schedule/slots", { ...slotsCall(), query: { ...slotsCall().query, endDate: "2026-11-26" } });
      await new Promise((resolve) => setTimeout(resolve, 100));
      change();
      await slow;
      await kept();
      await second.read("GET /v2/schedule/slots", { ...slotsCall(), query: { ...slotsCall().query, endDate: "2026-11-26" } });
      expect(harness.count("GET", SLOTS)).toBe(4);
    } finally {
      close();
    }
  });

  it("a change is dropped from the shared answers once, by the process that learnt it from the service", async () => {
    const { clients, change, kept, drops, close } = processes(3);
    const [first, second, third] = clients;
    if (!first || !second || !third) throw new Error("three processes");
    try {
      await first.read("GET /v2/schedule/slots", slotsCall());
      await kept();
      // Heard from another process: that process dropped it; nothing kept is dropped again.
      third.invalidate(ORG_A, {}, "another process");
      await second.read("GET /v2/schedule/slots", slotsCall());
      expect(harness.count("GET", SLOTS)).toBe(1);
      change();
      expect(drops()).toBe(1);
      await third.read("GET /v2/schedule/slots", slotsCall());
      expect(harness.count("GET", SLOTS)).toBe(2);
    } finally {
      close();
    }
  });

  it("a strong read never takes a shared answer", async () => {
    const { clients, kept, close } = processes(2);
    const [first, second] = clients;
    if (!first || !second) throw new Error("two processes");
    try {
      await first.read("GET /v2/schedule/slots", slotsCall());
      await kept();
      await second.read("GET /v2/schedule/slots", { ...slotsCall(), consistency: "strong" });
      expect(harness.count("GET", SLOTS)).toBe(2);
      expect(second.stats().sharedAnswerHits).toBe(0);
    } finally {
      close();
    }
  });

  it("BENCH_DISABLE=shared-answers: each process reads for itself", async () => {
    const store = openStore();
    const clients = [0, 1].map(() => harness.client({ sharedAnswers: store, benchDisable: ["shared-answers"] }));
    try {
      for (const client of clients) await client.read("GET /v2/schedule/slots", slotsCall());
      expect(harness.count("GET", SLOTS)).toBe(2);
    } finally {
      clients.forEach((client) => client.close());
    }
  });
});

describe("a shared-answers store that cannot be reached", () => {
  it("is a miss: the read goes to the service, the failure is told, and nothing hangs", async () => {
    const failures: unknown[] = [];
    const store = createRedisAnswerStore({ url: "redis://127.0.0.1:1", namespace: "unreachable", onError: (error) => failures.push(error) });
    const client = harness.client({ sharedAnswers: store });
    try {
      expect((await client.read("GET /v2/schedule/slots", slotsCall())).data().slots.length).toBeGreaterThan(0);
      expect(harness.count("GET", SLOTS)).toBe(1);
      expect(failures.length).toBeGreaterThan(0);
    } finally {
      client.close();
    }
  });

  it.skipIf(redisUrl === undefined)("says once when Redis answers again, and shares answers from then on", async () => {
    // A port that refuses until a proxy to the machine's Redis starts on it.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const target = new URL(redisUrl ?? "");
    const proxy = createServer((socket) => socket.pipe(createConnection(Number(target.port || 6379), target.hostname)).pipe(socket));
    let recoveries = 0;
    const store = createRedisAnswerStore({ url: `redis://127.0.0.1:${port}`, namespace: `test ${randomUUID()}`, onRecovered: () => (recoveries += 1) });
    try {
      expect(await store.look(ORG_A, "key")).toBeUndefined();
      expect(recoveries).toBe(0);
      await new Promise<void>((resolve) => proxy.listen(port, "127.0.0.1", resolve));
      await expect.poll(async () => (await store.look(ORG_A, "key"))?.kept, { timeout: 5_000, interval: 250 }).toBeNull();
      expect(recoveries).toBe(1);
      await store.look(ORG_A, "key");
      expect(recoveries).toBe(1);
    } finally {
      store.close();
      proxy.close();
    }
  });
});
