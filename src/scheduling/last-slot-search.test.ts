// @vitest-environment happy-dom
import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LastSlotSearchResponse, StoredSlotSearch } from "#contract/app-api/last-slot-search.ts";
import { switchCacheIdentity, type CacheIdentity } from "#src/api/cache-identity.ts";
import { ApiError } from "#src/api/bff-client.ts";
import { reportBffAnswered, TANDEM_RETRY_MAX_MS } from "#src/api/bff-reachability.ts";
import { keptSlotSearch, lastSlotSearch, rememberSlotSearch, SAVE_DELAY_MS } from "./last-slot-search.ts";
import { validateStoredSlotSearch, type SlotSearchParams } from "./slot-search-params.ts";

// The user's last slot search (issue 36 item 8): saved to the BFF a moment
// after the URL's filters change (one write for a burst), never for another
// user than the one who searched; read back for the slot finder opened
// without filters (the /slots route's beforeLoad), checked as a link is (a
// window already begun dropped).

const api = vi.hoisted(() => ({
  saved: [] as { identity: unknown; search: unknown }[],
  savedAsPageWent: [] as { identity: unknown; search: unknown }[],
  kept: null as Record<string, unknown> | null,
  readFails: false,
  /** The next saves fail with these, one each. */
  saveFailures: [] as Error[],
}));

vi.mock("#src/api/last-slot-search-queries.ts", async () => {
  const { queryOptions } = await import("@tanstack/react-query");
  const { currentCacheIdentity } = await import("#src/api/cache-identity.ts");
  const { queryKeys } = await import("#src/api/query-keys.ts");
  return {
    lastSlotSearchQuery: () =>
      queryOptions({
        queryKey: queryKeys.lastSlotSearch(),
        queryFn: (): Promise<LastSlotSearchResponse> => (api.readFails ? Promise.reject(new Error("down")) : Promise.resolve({ search: api.kept, savedAt: api.kept ? "2026-11-17T14:00:00.000Z" : null })),
        retry: false,
      }),
    saveLastSlotSearchWhileLeaving: (search: StoredSlotSearch): boolean => {
      api.savedAsPageWent.push({ identity: currentCacheIdentity(), search });
      return true;
    },
    saveLastSlotSearch: (search: StoredSlotSearch): Promise<LastSlotSearchResponse> => {
      const failure = api.saveFailures.shift();
      if (failure) return Promise.reject(failure);
      api.saved.push({ identity: currentCacheIdentity(), search });
      return Promise.resolve({ search, savedAt: "2026-11-17T14:00:00.000Z" });
    },
  };
});

const ALICE: CacheIdentity = { organizationId: "org_a", userId: "alice" };
const BOB: CacheIdentity = { organizationId: "org_a", userId: "bob" };
const TYPE = "0f6b3a8e-2d4c-4a59-9d1e-5b7c8a9e0f12";
const FACILITY = "decb7415-a45c-4b13-8593-61ec146879bf";
const NEXT_WEEK: SlotSearchParams = { appointmentTypeId: TYPE, facilityIds: FACILITY, startDate: "2026-11-23", endDate: "2026-11-29", order: "time" };

let queryClient: QueryClient;

beforeEach(() => {
  queryClient = new QueryClient();
  api.saved = [];
  api.savedAsPageWent = [];
  api.kept = null;
  api.readFails = false;
  api.saveFailures = [];
  switchCacheIdentity(queryClient, ALICE);
});

afterEach(() => {
  vi.useRealTimers();
  switchCacheIdentity(queryClient, null);
});

describe("saving the last search", () => {
  beforeEach(() => vi.useFakeTimers());

  it("sends one write for a burst of changes, the last of them, a moment after it, without the note of a link's dropped filters", async () => {
    rememberSlotSearch({ ...NEXT_WEEK, order: "provider" }, queryClient);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS - 100);
    rememberSlotSearch({ ...NEXT_WEEK, dropped: "slotLengthMinutes" }, queryClient);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS - 1);
    expect(api.saved).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(api.saved).toEqual([{ identity: ALICE, search: NEXT_WEEK }]);
    // Kept in the cache as saved, and not sent again for the same search.
    expect(queryClient.getQueryData(["organization", "org_a", "alice", "last-slot-search"])).toMatchObject({ search: NEXT_WEEK });
    rememberSlotSearch(NEXT_WEEK, queryClient);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    expect(api.saved).toHaveLength(1);
  });

  it("sends a save still waiting as the page goes (a reload right after a search), once", async () => {
    rememberSlotSearch(NEXT_WEEK, queryClient);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS - 100);
    window.dispatchEvent(new Event("pagehide"));
    expect(api.savedAsPageWent).toEqual([{ identity: ALICE, search: NEXT_WEEK }]);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS * 2);
    expect(api.saved).toEqual([]);
    // Nothing waiting: nothing sent.
    window.dispatchEvent(new Event("pagehide"));
    expect(api.savedAsPageWent).toHaveLength(1);
  });

  it("sends a save Tandem's server could not take again, on Tandem's backoff (1 s, then 2), until it is kept; a newer search replaces it", async () => {
    const unreachable = () => new TypeError("Failed to fetch");
    api.saveFailures = [unreachable(), new ApiError(503, { code: "unavailable", message: "restarting", trace_id: "t" }), unreachable()];
    rememberSlotSearch(NEXT_WEEK, queryClient);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    expect(api.saveFailures).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(api.saveFailures).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(api.saveFailures).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(api.saved).toEqual([]);
    // The third failure: a newer search comes while it waits, and is the one kept.
    const later = { ...NEXT_WEEK, startDate: "2026-11-30", endDate: "2026-12-06" };
    rememberSlotSearch(later, queryClient);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    expect(api.saved).toEqual([{ identity: ALICE, search: later }]);
    await vi.advanceTimersByTimeAsync(TANDEM_RETRY_MAX_MS * 2);
    expect(api.saved).toHaveLength(1);
  });

  it("sends a save waiting after a failure at once when Tandem's server answers another call", async () => {
    api.saveFailures = [new TypeError("Failed to fetch")];
    rememberSlotSearch(NEXT_WEEK, queryClient);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    expect(api.saved).toEqual([]);
    reportBffAnswered();
    await vi.advanceTimersByTimeAsync(0);
    expect(api.saved).toEqual([{ identity: ALICE, search: NEXT_WEEK }]);
    // A save not yet due (no failure) waits for its moment.
    rememberSlotSearch({ ...NEXT_WEEK, order: "provider" }, queryClient);
    reportBffAnswered();
    await vi.advanceTimersByTimeAsync(0);
    expect(api.saved).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    expect(api.saved).toHaveLength(2);
  });

  it("sends a failed save waiting to be sent again as the page goes; one refused for what it is (4xx) is not sent again", async () => {
    api.saveFailures = [new TypeError("Failed to fetch")];
    rememberSlotSearch(NEXT_WEEK, queryClient);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    window.dispatchEvent(new Event("pagehide"));
    expect(api.savedAsPageWent).toEqual([{ identity: ALICE, search: NEXT_WEEK }]);

    api.saveFailures = [new ApiError(400, { code: "invalid_request", message: "no", trace_id: "t" })];
    const other = { ...NEXT_WEEK, order: "provider" as const };
    rememberSlotSearch(other, queryClient);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS + TANDEM_RETRY_MAX_MS * 2);
    expect(api.saved).toEqual([]);
    window.dispatchEvent(new Event("pagehide"));
    expect(api.savedAsPageWent).toHaveLength(1);
  });

  it("sends nothing for a slot finder without filters", async () => {
    rememberSlotSearch({}, queryClient);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS * 2);
    expect(api.saved).toEqual([]);
  });

  it("drops a search not yet sent when another user signs in: it is never kept as theirs", async () => {
    rememberSlotSearch(NEXT_WEEK, queryClient);
    switchCacheIdentity(queryClient, BOB);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS * 2);
    expect(api.saved).toEqual([]);
  });
});

describe("the tab's copy for links back to the slot finder", () => {
  it("is the current user's own: another user signed in finds none", () => {
    rememberSlotSearch(NEXT_WEEK, queryClient);
    expect(lastSlotSearch()).toEqual(NEXT_WEEK);
    switchCacheIdentity(queryClient, BOB);
    expect(lastSlotSearch()).toEqual({});
    expect(sessionStorage.getItem("tandem.lastSlotSearch")).not.toBeNull();
  });
});

describe("the kept search, for the slot finder opened without filters", () => {
  it("is the search the BFF kept, checked as a link is", async () => {
    api.kept = { ...NEXT_WEEK };
    expect(await keptSlotSearch(queryClient, "2026-11-17")).toEqual(validateStoredSlotSearch(NEXT_WEEK, "2026-11-17"));
    expect(await keptSlotSearch(queryClient, "2026-11-17")).toMatchObject(NEXT_WEEK);
  });

  it("with its window begun, keeps the rest and names the dates dropped", async () => {
    api.kept = { ...NEXT_WEEK };
    expect(await keptSlotSearch(queryClient, "2026-11-24")).toMatchObject({ appointmentTypeId: TYPE, order: "time", startDate: undefined, endDate: undefined, dropped: "startDate,endDate" });
  });

  it("is none without a kept search, or when it cannot be read: the defaults", async () => {
    expect(await keptSlotSearch(queryClient, "2026-11-17")).toBeNull();
    queryClient.clear();
    api.readFails = true;
    expect(await keptSlotSearch(queryClient, "2026-11-17")).toBeNull();
  });

  it("is not saved back as the user's search when the URL carries it", async () => {
    vi.useFakeTimers();
    api.kept = { ...NEXT_WEEK };
    const params = await keptSlotSearch(queryClient, "2026-11-17");
    rememberSlotSearch(params ?? {}, queryClient);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS * 2);
    expect(api.saved).toEqual([]);
  });
});

describe("a kept search checked as a link is", () => {
  it("drops a window that began before today, and values the URL would not take, and names them", () => {
    expect(validateStoredSlotSearch({ ...NEXT_WEEK, slotLengthMinutes: 7.5 }, "2026-11-24")).toEqual({
      ...NEXT_WEEK,
      startDate: undefined,
      endDate: undefined,
      slotLengthMinutes: undefined,
      isNewPatient: undefined,
      providerIds: undefined,
      startsFrom: undefined,
      startsBefore: undefined,
      days: undefined,
      dropped: "startDate,endDate,slotLengthMinutes",
    });
    expect(validateStoredSlotSearch(NEXT_WEEK, "2026-11-23")).toMatchObject({ startDate: "2026-11-23", dropped: undefined });
  });
});
