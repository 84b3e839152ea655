import { describe, expect, it, vi } from "vitest";
import { RefreshAhead } from "./refresh-ahead.ts";

const SLOTS = "GET /v2/schedule/slots";
const AVAILABILITY = "GET /v3/schedule/availability-templates";

function setup(
  options: { refresh?: (organization: string, key: string) => Promise<boolean>; maxEntriesPerOrganization?: number; maxSpacingMs?: number; wait?: (ms: number) => Promise<void>; syncProbeEveryMs?: number } = {},
) {
  let now = 1_000_000;
  const refreshed: string[] = [];
  const refresh = options.refresh ?? (() => Promise.resolve(true));
  const ahead = new RefreshAhead<string>({
    now: () => now,
    maxEntriesPerOrganization: options.maxEntriesPerOrganization ?? 100,
    maxSpacingMs: options.maxSpacingMs ?? 0,
    wait: options.wait,
    ...(options.syncProbeEveryMs !== undefined && { syncProbeEveryMs: options.syncProbeEveryMs }),
    refresh: (organization, key) => {
      refreshed.push(key);
      return refresh(organization, key);
    },
  });
  const store = (key: string, syncedAt: number, route = SLOTS, organization = "org-a") => ahead.stored(organization, key, { request: key, route, syncedAt, expiresAt: syncedAt + 70_000 });
  return { ahead, refreshed, store, advance: (ms: number) => (now += ms), at: () => now };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("RefreshAhead", () => {
  it("refreshes, once a newer sync shows, the entries users read since they were fetched, and no others", async () => {
    const { ahead, refreshed, store, at } = setup();
    const synced = at() - 5_000;
    store("read", synced);
    store("unread", synced);
    ahead.read("org-a", "read");
    store("newer", synced + 60_000);
    await settle();
    expect(refreshed).toEqual(["read"]);
  });

  it("takes a newer sync of another route as a hint: probes the route's most recently read entry, once per hint", async () => {
    const { ahead, refreshed, store, advance, at } = setup();
    const synced = at();
    store("search-1", synced);
    store("search-2", synced);
    ahead.read("org-a", "search-1");
    advance(1_000);
    ahead.read("org-a", "search-2");
    store("week", synced + 60_000, AVAILABILITY);
    await settle();
    expect(refreshed).toEqual(["search-2"]);
    // The probe's answer shows the old sync (slots were not synced): nothing follows, and the same hint probes no more.
    store("search-2", synced);
    ahead.read("org-a", "search-2");
    ahead.read("org-a", "search-1");
    store("week-2", synced + 60_000, AVAILABILITY);
    await settle();
    expect(refreshed).toEqual(["search-2"]);
  });

  it("refreshes the rest of a route once its probe shows the newer sync", async () => {
    const newer = 1_000_000 + 60_000;
    const refresh = (_organization: string, key: string) => {
      if (key !== "week") store(key, newer);
      return Promise.resolve(true);
    };
    const { ahead, refreshed, store, advance, at } = setup({ refresh });
    const synced = at();
    for (const key of ["search-1", "search-2", "search-3"]) {
      store(key, synced);
      ahead.read("org-a", key);
      advance(1_000);
    }
    store("week", newer, AVAILABILITY);
    await settle();
    await settle();
    expect(refreshed).toEqual(["search-3", "search-2", "search-1"]);
  });

  it("probes before refreshing entries known to be stale", async () => {
    const { ahead, refreshed, store, at } = setup({ refresh: () => new Promise<boolean>(() => undefined) });
    const synced = at();
    store("week-1", synced, AVAILABILITY);
    store("search", synced);
    ahead.read("org-a", "search");
    ahead.read("org-a", "week-1");
    store("week-2", synced + 60_000, AVAILABILITY);
    await settle();
    expect(refreshed).toEqual(["search"]);
  });

  it("a read after the newer sync showed starts the refresh too; an entry is tried once per fetch", async () => {
    const { ahead, refreshed, store, at } = setup({ refresh: () => Promise.resolve(true) });
    store("search", at());
    store("newer", at() + 60_000);
    await settle();
    expect(refreshed).toEqual([]);
    ahead.read("org-a", "search");
    await settle();
    ahead.read("org-a", "search");
    await settle();
    expect(refreshed).toEqual(["search"]);
  });

  it("leaves entries read long ago, and expired ones, to expire", async () => {
    const { ahead, refreshed, store, advance, at } = setup();
    store("old-read", at());
    ahead.read("org-a", "old-read");
    advance(31_000);
    store("newer", at() + 60_000);
    await settle();
    expect(refreshed).toEqual([]);
  });

  it("runs one refresh at a time per organization and stops at the first it could not make", async () => {
    let release: (made: boolean) => void = () => undefined;
    const { ahead, refreshed, store, at } = setup({ refresh: () => new Promise<boolean>((resolve) => (release = resolve)) });
    for (const key of ["a", "b", "c"]) {
      store(key, at());
      ahead.read("org-a", key);
    }
    store("newer", at() + 60_000);
    await settle();
    expect(refreshed).toHaveLength(1);
    release(false);
    await settle();
    await settle();
    expect(refreshed).toHaveLength(1);
  });

  it("forgets what the cache dropped, and keeps at most its bound per organization", async () => {
    const refresh = vi.fn(() => Promise.resolve(true));
    const { ahead, store, at } = setup({ refresh, maxEntriesPerOrganization: 2 });
    store("a", at());
    store("b", at());
    store("c", at());
    for (const key of ["a", "b", "c"]) ahead.read("org-a", key);
    ahead.forget("org-a", SLOTS);
    store("newer", at() + 60_000);
    await settle();
    expect(refresh).not.toHaveBeenCalled();
  });

  it("spaces the refreshes: the due ones over half the time left before the earliest expires, at most maxSpacingMs apart", async () => {
    const pauses: number[] = [];
    const { ahead, refreshed, store, advance, at } = setup({
      maxSpacingMs: 250,
      wait: (ms) => {
        pauses.push(ms);
        return Promise.resolve();
      },
    });
    // Fetched 62 s after their sync: they expire 8 s from now.
    const synced = at() - 62_000;
    for (const key of ["a", "b", "c", "d"]) {
      store(key, synced);
      ahead.read("org-a", key);
      advance(1);
    }
    store("newer", synced + 60_000);
    for (let turn = 0; turn < 10; turn += 1) await settle();
    expect(refreshed).toHaveLength(4);
    // After the first, 3 due in (8 s - 4 ms) / 2: at most 250 ms; then 2, then 1 (still capped); none after the last.
    expect(pauses).toEqual([250, 250, 250]);
    expect(pauses.length).toBe(refreshed.length - 1);
  });

  it("pauses less when the time left is short", async () => {
    const pauses: number[] = [];
    const { ahead, store, at } = setup({ maxSpacingMs: 250, wait: (ms) => (pauses.push(ms), Promise.resolve()) });
    // Expire 400 ms from now: two left after the first refresh share 200 ms.
    const synced = at() - 69_600;
    for (const key of ["a", "b", "c"]) {
      store(key, synced);
      ahead.read("org-a", key);
    }
    store("newer", synced + 60_000);
    for (let turn = 0; turn < 10; turn += 1) await settle();
    expect(pauses).toEqual([100, 200]);
  });

  describe("probing for a newer sync nothing showed", () => {
    it("reads an entry read in the last quarter of its lifetime again, at most once every syncProbeEveryMs per organization", async () => {
      const { ahead, refreshed, store, advance, at } = setup({ syncProbeEveryMs: 2_000 });
      const synced = at();
      store("a", synced);
      store("b", synced);
      advance(50_000);
      ahead.read("org-a", "a");
      await settle();
      // 20 s of 70 left: not yet.
      expect(refreshed).toEqual([]);
      advance(5_000);
      ahead.read("org-a", "a");
      await settle();
      expect(refreshed).toEqual(["a"]);
      // Its answer shows the same sync: nothing follows, and the next probe waits its turn.
      store("a", synced);
      ahead.read("org-a", "a");
      ahead.read("org-a", "b");
      await settle();
      expect(refreshed).toEqual(["a"]);
      advance(2_000);
      ahead.read("org-a", "b");
      await settle();
      expect(refreshed).toEqual(["a", "b"]);
    });

    it("once the probe's answer shows the newer sync, the entries users read follow", async () => {
      let storeAnswer: (key: string) => void = () => undefined;
      const { ahead, refreshed, store, advance, at } = setup({
        refresh: (_organization, key) => {
          storeAnswer(key);
          return Promise.resolve(true);
        },
      });
      const synced = at();
      storeAnswer = (key) => store(key, synced + 60_000);
      for (const key of ["a", "b", "c"]) store(key, synced);
      advance(40_000);
      ahead.read("org-a", "b");
      advance(16_000);
      ahead.read("org-a", "a");
      for (let turn = 0; turn < 5; turn += 1) await settle();
      // "c" was never read: it expires as it is.
      expect(refreshed).toEqual(["a", "b"]);
    });

    it("does not probe when a newer sync is already known, or when turned off", async () => {
      const off = setup({ syncProbeEveryMs: 0 });
      const synced = off.at();
      off.store("a", synced);
      off.advance(60_000);
      off.ahead.read("org-a", "a");
      await settle();
      expect(off.refreshed).toEqual([]);

      const { ahead, refreshed, store, advance, at } = setup();
      store("a", at());
      advance(60_000);
      // A newer sync of the route is known and "a" was not read before it: it is due the ordinary way once read.
      store("b", at() - 1_000);
      ahead.read("org-a", "a");
      await settle();
      expect(refreshed).toEqual(["a"]);
    });
  });
});
