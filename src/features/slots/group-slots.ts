import type { Slot } from "../../../contract/clinic-api/schedule.ts";
import { rawId } from "../../lib/raw-id.ts";
import { dayLengthMinutes, localDateOf } from "../../../contract/time/zoned-time.ts";

// Slots grouped by local day and provider. A slot belongs to the local date it
// starts on in its facility's zone (DESIGN.md, time rules), so a 23:30 slot in
// Chicago and a 00:30 slot in New York at the same instant sit on different
// days. Days with a clock change are marked from `dayLengthMinutes`.

/** One identity for a slot whatever form its ids or offset take: provider, facility, start instant. */
export function slotKey(slot: Pick<Slot, "providerId" | "facilityId" | "startsAt">): string {
  return `${rawId(slot.providerId)}|${rawId(slot.facilityId)}|${Date.parse(slot.startsAt)}`;
}


export interface GroupedSlot {
  key: string;
  slot: Slot;
  startMs: number;
}

export interface SlotRow {
  key: string;
  providerId: string;
  facilityId: string;
  zone: string;
  slots: GroupedSlot[];
}

export interface SlotDay {
  date: string;
  /** Zones of this day's slots whose day is not 24 hours long. */
  clockChanges: { zone: string; dayLengthMinutes: number }[];
  rows: SlotRow[];
}

export interface GroupOptions {
  /** The facility's IANA zone (either id form); undefined when unknown. */
  zoneOf: (facilityId: string) => string | undefined;
  /** Used where a facility's zone is unknown. */
  fallbackZone: string;
  /** Orders the rows of a day (a provider's name). */
  providerSortKey: (providerId: string) => string;
  facilitySortKey?: (facilityId: string) => string;
}

export function groupSlotsByDay(slots: readonly Slot[], { zoneOf, fallbackZone, providerSortKey, facilitySortKey = (id) => id }: GroupOptions): SlotDay[] {
  const days = new Map<string, Map<string, SlotRow>>();
  const zonesByDay = new Map<string, Set<string>>();
  for (const slot of slots) {
    const zone = zoneOf(slot.facilityId) ?? fallbackZone;
    const startMs = Date.parse(slot.startsAt);
    const date = localDateOf(startMs, zone);
    let rows = days.get(date);
    if (!rows) {
      rows = new Map();
      days.set(date, rows);
      zonesByDay.set(date, new Set());
    }
    zonesByDay.get(date)?.add(zone);
    const rowKey = `${date}|${rawId(slot.providerId)}|${rawId(slot.facilityId)}`;
    let row = rows.get(rowKey);
    if (!row) {
      row = { key: rowKey, providerId: slot.providerId, facilityId: slot.facilityId, zone, slots: [] };
      rows.set(rowKey, row);
    }
    row.slots.push({ key: slotKey(slot), slot, startMs });
  }
  return [...days.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([date, rows]) => ({
      date,
      clockChanges: [...(zonesByDay.get(date) ?? [])].map((zone) => ({ zone, dayLengthMinutes: dayLengthMinutes(date, zone) })).filter((change) => change.dayLengthMinutes !== 1440),
      rows: [...rows.values()]
        .map((row) => ({ ...row, slots: row.slots.sort((a, b) => a.startMs - b.startMs) }))
        .sort(
          (a, b) =>
            providerSortKey(a.providerId).localeCompare(providerSortKey(b.providerId)) ||
            facilitySortKey(a.facilityId).localeCompare(facilitySortKey(b.facilityId)) ||
            a.key.localeCompare(b.key),
        ),
    }));
}

/** The earliest slot (by instant) across every provider in the list: what "First available" jumps to. */
export function earliestSlot(days: readonly SlotDay[]): GroupedSlot | null {
  let earliest: GroupedSlot | null = null;
  for (const day of days) {
    for (const row of day.rows) {
      const first = row.slots[0];
      if (first && (!earliest || first.startMs < earliest.startMs)) earliest = first;
    }
  }
  return earliest;
}

export function countSlots(days: readonly SlotDay[]): number {
  return days.reduce((sum, day) => sum + day.rows.reduce((rowSum, row) => rowSum + row.slots.length, 0), 0);
}
