import { describe, expect, it, vi } from "vitest";
import { RefreshAhead } from "./refresh-ahead.ts";

const SLOTS = "GET /v2/schedule/slots";
const AVAILABILITY = "GET /v3/schedule/availability-templates";

function setup(options: { refresh?: (organization: string, key: string) => Promise<boolean>; maxEntriesPerOrganization?: number } = {}) {
  let now = 1_000_000;
  const refreshed: string[] = [];
  const refresh = options.refresh ?? (() => Promise.resolve(true));
  const ahead = new RefreshAhead<string>({
    now: () => now,
    recentReadMs: 30_000,
    maxEntriesPerOrganization: options.maxEntriesPerOrganization ?? 100,
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

  it("counts a newer sync per route: a newer availability answer does not make slot searches due", async () => {
    const { ahead, refreshed, store, at } = setup();
    store("search", at());
    ahead.read("org-a", "search");
    store("week", at() + 60_000, AVAILABILITY);
    await settle();
    expect(refreshed).toEqual([]);
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
});
