// @vitest-environment happy-dom
import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { SlotSearchQuery } from "#contract/app-api/slots.ts";
import type { SlotSearchAnswer } from "#src/api/slot-search-parts.ts";
import { renderWithUser } from "#src/testing/render.tsx";
import { ResultsToolbar, type ResultsToolbarProps } from "./slot-results-toolbar.tsx";

// The line above the slot list as a front desk reads it (how many, which
// days, what is still loading) and its controls: the order, First available.

const READER = { locale: "en-US", userZone: "America/New_York" };
const SHOWN: SlotSearchQuery = { appointmentTypeId: "atp_11111111111111111111111111111111", startDate: "2026-12-01", endDate: "2026-12-14" };
const META = { sourceSyncedAt: "2026-11-30T14:00:00Z", sourceKind: "ehr_sync", maxStalenessSeconds: 60, strongConsistency: false, strategy: "native", completeness: "complete", generatedAt: "2026-11-30T14:00:05Z" };

function answer(overrides: Partial<SlotSearchAnswer> = {}): SlotSearchAnswer {
  return { slots: [], nextAvailableByProvider: {}, meta: META, parts: [], loadedThrough: SHOWN.endDate, isComplete: true, ...overrides };
}

function renderToolbar(props: Partial<ResultsToolbarProps> = {}) {
  const handlers = { onRefresh: vi.fn(), onFirstAvailable: vi.fn(), onOrderChange: vi.fn() };
  const toolbar = (changed: Partial<ResultsToolbarProps>) => (
    <ResultsToolbar
      summaryRef={null}
      data={answer()}
      slotCount={0}
      shown={SHOWN}
      slotLengthMinutes={20}
      isFetching={false}
      isPlaceholderData={false}
      hasFailed={false}
      reader={READER}
      facilityZone="America/New_York"
      narrowing={null}
      showsOtherZones={false}
      order="provider"
      {...handlers}
      {...changed}
    />
  );
  const rendered = renderWithUser(toolbar(props));
  return { ...rendered, ...handlers, rerenderWith: (changed: Partial<ResultsToolbarProps>) => rendered.rerender(toolbar({ ...props, ...changed })) };
}

describe("the results toolbar", () => {
  it("counts a large group's slots with a thousands separator", () => {
    renderToolbar({ slotCount: 18_968 });
    expect(screen.getByRole("status").textContent).toMatch(/^18,968 free slots, Tue, Dec 1 to Mon, Dec 14, 20 min each$/);
  });

  it("says which days of a wide search are in and which are loading, then which could not be loaded", () => {
    const { rerenderWith } = renderToolbar({ slotCount: 1, data: answer({ isComplete: false, loadedThrough: "2026-12-03" }), isFetching: true });
    expect(screen.getByRole("status").textContent).toBe("1 free slot so far, Tue, Dec 1 to Thu, Dec 3, 20 min each; the days to Mon, Dec 14 are loading…");
    rerenderWith({ isFetching: false });
    expect(screen.getByRole("status").textContent).toBe("1 free slot, Tue, Dec 1 to Thu, Dec 3, 20 min each; the days from Fri, Dec 4 to Mon, Dec 14 could not be loaded.");
  });

  it("switches the order and jumps to the first available slot", async () => {
    const { user, onOrderChange, onFirstAvailable } = renderToolbar({ slotCount: 3 });
    expect(screen.getByRole("button", { name: "By provider" }).getAttribute("aria-pressed")).toBe("true");
    await user.click(screen.getByRole("button", { name: "In time order" }));
    expect(onOrderChange).toHaveBeenCalledWith("time");
    await user.click(screen.getByRole("button", { name: /First available/ }));
    expect(onFirstAvailable).toHaveBeenCalledTimes(1);
  });

  it("while new filters are searched, says the list shown is the previous one and keeps First available off it", () => {
    renderToolbar({ slotCount: 3, isPlaceholderData: true, isFetching: true });
    expect(screen.getByRole("status").textContent).toBe("Searching with the new filters; the previous list is shown meanwhile…");
    expect(screen.getByRole<HTMLButtonElement>("button", { name: /First available/ }).disabled).toBe(true);
  });

  it("keeps First available off while a wide search's first days have no slot and its later days load, and on once it has one", () => {
    const { rerenderWith } = renderToolbar({ slotCount: 0, data: answer({ isComplete: false, loadedThrough: "2026-12-01" }), isFetching: true });
    const firstAvailable = () => screen.getByRole<HTMLButtonElement>("button", { name: /First available/ });
    expect(firstAvailable().disabled).toBe(true);
    rerenderWith({ slotCount: 40, data: answer({ isComplete: false, loadedThrough: "2026-12-02" }) });
    expect(firstAvailable().disabled).toBe(false);
    // A whole search with no slot: First available goes to the next available dates.
    rerenderWith({ slotCount: 0, data: answer(), isFetching: false });
    expect(firstAvailable().disabled).toBe(false);
  });
});
