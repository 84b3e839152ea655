// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LastSlotSearchResponse, StoredSlotSearch } from "#contract/app-api/last-slot-search.ts";
import { switchCacheIdentity, type CacheIdentity } from "#src/api/cache-identity.ts";
import { lastSlotSearch, rememberSlotSearch, SAVE_DELAY_MS, useLastSlotSearch } from "./last-slot-search.ts";
import { validateStoredSlotSearch, type SlotSearchParams } from "./slot-search-params.ts";

// The user's last slot search (issue 36 item 8): saved to the BFF a moment
// after the URL's filters change (one write for a burst), never for another
// user than the one who searched; read back when the slot finder opens
// without filters, checked as a link is (a window already begun dropped).

const api = vi.hoisted(() => ({
  saved: [] as { identity: unknown; search: unknown }[],
  kept: null as Record<string, unknown> | null,
  readFails: false,
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
    saveLastSlotSearch: (search: StoredSlotSearch): Promise<LastSlotSearchResponse> => {
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
  api.kept = null;
  api.readFails = false;
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

describe("opening the slot finder", () => {
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  const render = (params: SlotSearchParams) => {
    const navigate = vi.fn(() => Promise.resolve());
    const hook = renderHook(({ url }) => useLastSlotSearch(url, navigate as never, "America/New_York"), { wrapper, initialProps: { url: params } });
    return { navigate, hook };
  };

  it("without filters in the URL, replaces them with the kept search, and runs no search until then", async () => {
    api.kept = { ...NEXT_WEEK, startDate: "2099-01-05", endDate: "2099-01-11" };
    const { navigate, hook } = render({});
    expect(hook.result.current.isRestoring).toBe(true);
    await waitFor(() => expect(navigate).toHaveBeenCalledTimes(1));
    expect(navigate).toHaveBeenCalledWith({ search: { ...api.kept, dropped: undefined }, replace: true });
    expect(hook.result.current.isRestoring).toBe(true);
    hook.rerender({ url: validateStoredSlotSearch(api.kept, "2026-11-17") });
    expect(hook.result.current.isRestoring).toBe(false);
  });

  it("with filters in the URL, reads nothing and keeps them", async () => {
    api.kept = { ...NEXT_WEEK };
    const { navigate, hook } = render(NEXT_WEEK);
    expect(hook.result.current.isRestoring).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(navigate).not.toHaveBeenCalled();
    expect(queryClient.getQueryState(["organization", "org_a", "alice", "last-slot-search"])?.dataUpdatedAt ?? 0).toBe(0);
  });

  it("without a kept search, or when it cannot be read, opens on the defaults", async () => {
    const none = render({});
    await waitFor(() => expect(none.hook.result.current.isRestoring).toBe(false));
    expect(none.navigate).not.toHaveBeenCalled();

    queryClient.clear();
    api.readFails = true;
    const failed = render({});
    await waitFor(() => expect(failed.hook.result.current.isRestoring).toBe(false));
    expect(failed.navigate).not.toHaveBeenCalled();
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
