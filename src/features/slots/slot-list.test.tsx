// @vitest-environment happy-dom
import { screen, within } from "@testing-library/react";
import { useMemo, useRef, useState } from "react";
import { describe, expect, it } from "vitest";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { formatInstant, localToInstant } from "#contract/time/zoned-time.ts";
import { slotKey } from "#src/scheduling/slot-identity.ts";
import { renderWithUser } from "#src/testing/render.tsx";
import { earliestSlot, groupSlotsByDay, groupSlotsByTime, type SlotOrder } from "./group-slots.ts";
import { SlotList, type SlotListHandle } from "./slot-list.tsx";

// The slot list as a front desk uses it: Tab into it, arrow keys and PageDown
// through it (moving never selects), Enter or a click to hold, the Held mark,
// and First available marked and focused, by provider and in time order.

const NEW_YORK = "fac_11111111111111111111111111111111";
const CHICAGO = "fac_22222222222222222222222222222222";
const ADAMS = "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const BROOKS = "prv_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
const ZONES: Record<string, string> = { [NEW_YORK]: "America/New_York", [CHICAGO]: "America/Chicago" };
const PROVIDERS: Record<string, string> = { [ADAMS]: "Dr. Ada Adams", [BROOKS]: "Dr. Ben Brooks" };
const FACILITIES: Record<string, string> = { [NEW_YORK]: "Upper West Side", [CHICAGO]: "Lincoln Park" };
const READER = { locale: "en-US", userZone: "America/New_York" };

function slotAt(providerId: string, facilityId: string, date: string, time: string): Slot {
  const zone = ZONES[facilityId] ?? "UTC";
  const start = localToInstant(date, time, zone);
  return { providerId, facilityId, startsAt: formatInstant(start, zone), endsAt: formatInstant(start + 20 * 60_000, zone), remainingCapacity: 1, templateIds: [] };
}

// Tuesday: Adams 10:00 and 10:30, Brooks 9:00 (the earliest); Wednesday: Adams 11:00.
const SLOTS = [slotAt(ADAMS, NEW_YORK, "2026-12-01", "10:00"), slotAt(ADAMS, NEW_YORK, "2026-12-01", "10:30"), slotAt(BROOKS, NEW_YORK, "2026-12-01", "09:00"), slotAt(ADAMS, NEW_YORK, "2026-12-02", "11:00")];

function FrontDesk({ slots = SLOTS, order = "provider", multiFacility = false, heldForOthers = new Map() }: { slots?: Slot[]; order?: SlotOrder; multiFacility?: boolean; heldForOthers?: ReadonlyMap<string, string> }) {
  const [heldKeys, setHeldKeys] = useState<ReadonlySet<string>>(new Set());
  const listRef = useRef<SlotListHandle>(null);
  const days = useMemo(() => {
    const options = { zoneOf: (id: string) => ZONES[id], fallbackZone: "America/New_York" };
    return order === "time" ? groupSlotsByTime(slots, options) : groupSlotsByDay(slots, { ...options, providerSortKey: (id) => PROVIDERS[id] ?? id });
  }, [slots, order]);
  const firstKey = earliestSlot(days, heldKeys)?.key ?? null;
  return (
    <>
      <button type="button" onClick={() => firstKey && listRef.current?.focusSlot(firstKey)}>
        First available
      </button>
      <SlotList
        ref={listRef}
        days={days}
        providerName={(id) => PROVIDERS[id] ?? id}
        facilityName={multiFacility ? (id) => FACILITIES[id] ?? id : null}
        reader={READER}
        heldKeys={heldKeys}
        heldForOthers={heldForOthers}
        pendingKey={null}
        firstKey={firstKey}
        onSelect={(slot) =>
          setHeldKeys((held) => {
            // Choosing a held slot again releases it here (the app's holds bar does that).
            const next = new Set(held);
            if (!next.delete(slotKey(slot))) next.add(slotKey(slot));
            return next;
          })
        }
        onFocusSlot={() => undefined}
      />
    </>
  );
}

const slotNamed = (name: RegExp) => screen.getByRole("button", { name });

describe("the slot list", () => {
  it("is one Tab stop; arrows, PageDown and Ctrl+End move through it without selecting", async () => {
    const { user } = renderWithUser(<FrontDesk />);
    await user.tab();
    await user.tab();
    // By provider: Adams' row first (by name), its 10:00 the tab stop.
    expect(document.activeElement).toBe(slotNamed(/^Dr. Ada Adams, Tuesday, December 1, 10:00 AM/));
    await user.keyboard("{ArrowRight}");
    expect(document.activeElement).toBe(slotNamed(/Adams, Tuesday, December 1, 10:30 AM/));
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(slotNamed(/Brooks, Tuesday, December 1, 9:00 AM/));
    await user.keyboard("{PageDown}");
    expect(document.activeElement).toBe(slotNamed(/Adams, Wednesday, December 2, 11:00 AM/));
    await user.keyboard("{Control>}{Home}{/Control}");
    expect(document.activeElement).toBe(slotNamed(/^Dr. Ada Adams, Tuesday, December 1, 10:00 AM/));
    // Tab leaves the list (one stop), Shift+Tab comes back to the slot last on.
    await user.tab();
    expect(screen.getAllByRole("button").filter((button) => button.tabIndex === 0 && button.dataset.testid === "slot")).toHaveLength(1);
    expect(screen.queryAllByRole("button", { name: /held by you/ })).toHaveLength(0);
  });

  it("holds the slot chosen with Enter or a click and marks it Held", async () => {
    const { user } = renderWithUser(<FrontDesk />);
    await user.tab();
    await user.tab();
    await user.keyboard("{ArrowRight}{Enter}");
    const held = slotNamed(/Adams, Tuesday, December 1, 10:30 AM.*, held by you$/);
    expect(held.getAttribute("aria-current")).toBe("true");
    expect(within(held).getByText(/Held/)).toBeTruthy();
    await user.click(slotNamed(/Adams, Wednesday, December 2, 11:00 AM/));
    expect(screen.getAllByRole("button", { name: /held by you$/ })).toHaveLength(2);
  });

  it("names the patient a slot is held for when the EHR has opened another since ('Held for Ortiz, Christopher')", async () => {
    const forOrtiz = new Map([[slotKey(SLOTS[1] as Slot), "Ortiz, Christopher"]]);
    const { user } = renderWithUser(<FrontDesk heldForOthers={forOrtiz} />);
    await user.click(slotNamed(/Adams, Tuesday, December 1, 10:30 AM/));
    await user.click(slotNamed(/Brooks, Tuesday, December 1, 9:00 AM/));
    const kept = slotNamed(/Adams, Tuesday, December 1, 10:30 AM.*, held by you for Ortiz, Christopher$/);
    expect(within(kept).getByText("Held for Ortiz, Christopher")).toBeTruthy();
    // A slot held for the patient open now says Held only.
    const own = slotNamed(/Brooks, Tuesday, December 1, 9:00 AM.*, held by you$/);
    expect(within(own).getByText("Held")).toBeTruthy();
  });

  it("marks each held slot of a row, and unmarks only the one released (a row is redrawn for its own slots)", async () => {
    const { user } = renderWithUser(<FrontDesk />);
    await user.click(slotNamed(/^Dr. Ada Adams, Tuesday, December 1, 10:00 AM/));
    await user.click(slotNamed(/Adams, Tuesday, December 1, 10:30 AM/));
    await user.click(slotNamed(/Brooks, Tuesday, December 1, 9:00 AM/));
    expect(screen.getAllByRole("button", { name: /held by you$/ })).toHaveLength(3);
    await user.click(slotNamed(/Adams, Tuesday, December 1, 10:00 AM.*held by you$/));
    expect(screen.getAllByRole("button", { name: /held by you$/ }).map((button) => button.getAttribute("aria-label"))).toEqual([
      expect.stringMatching(/Adams, Tuesday, December 1, 10:30 AM/),
      expect.stringMatching(/Brooks, Tuesday, December 1, 9:00 AM/),
    ]);
  });

  it("marks the earliest slot First available and focuses it from the button; once held, the mark moves to the next", async () => {
    const { user } = renderWithUser(<FrontDesk />);
    const first = slotNamed(/^First available: Dr. Ben Brooks, Tuesday, December 1, 9:00 AM/);
    expect(within(first).getByText("First available")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "First available" }));
    expect(document.activeElement).toBe(first);
    await user.keyboard("{Enter}");
    expect(slotNamed(/^Dr. Ben Brooks, Tuesday, December 1, 9:00 AM.*held by you$/)).toBeTruthy();
    expect(slotNamed(/^First available: Dr. Ada Adams, Tuesday, December 1, 10:00 AM/)).toBeTruthy();
  });

  it("in time order across New York and Chicago, lists by the instant and names the zones and facilities", async () => {
    const slots = [slotAt(ADAMS, NEW_YORK, "2026-12-01", "10:00"), slotAt(BROOKS, CHICAGO, "2026-12-01", "08:30"), slotAt(ADAMS, NEW_YORK, "2026-12-01", "09:00")];
    const { user } = renderWithUser(<FrontDesk slots={slots} order="time" multiFacility />);
    const rows = screen.getAllByRole("group");
    expect(rows.map((row) => row.getAttribute("aria-labelledby") && document.getElementById(row.getAttribute("aria-labelledby") ?? "")?.textContent)).toEqual([
      expect.stringMatching(/^From 9:00 AM EST · 8:00 AM CST 2 slots, Tuesday, December 1/),
      expect.stringMatching(/^From 10:00 AM EST 1 slot, Tuesday, December 1/),
    ]);
    const first = within(rows[0] as HTMLElement).getAllByRole("button");
    // 9:00 New York (14:00Z) before 8:30 Chicago (14:30Z).
    expect(first.map((button) => button.dataset.startsAt)).toEqual(["2026-12-01T09:00:00-05:00", "2026-12-01T08:30:00-06:00"]);
    expect(within(first[1] as HTMLElement).getByText("CST")).toBeTruthy();
    expect(within(first[1] as HTMLElement).getByText("Lincoln Park")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "First available" }));
    expect(document.activeElement).toBe(first[0]);
  });
});
