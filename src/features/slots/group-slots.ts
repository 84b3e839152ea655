import type { Slot } from "#contract/clinic-api/schedule.ts";
import { idKey } from "#contract/ids.ts";
import { dayLengthMinutes, localDateOf, localTimeOf, offsetMsAt } from "#contract/time/zoned-time.ts";
import { slotKey } from "#src/scheduling/slot-identity.ts";

// Slots grouped by local day, then by provider or (in time order) by hour
// across providers. A slot belongs to the local date it starts on in its
// facility's zone (DESIGN.md, time rules), so a 23:30 slot in Chicago and a
// 00:30 slot in New York at the same instant sit on different days. Days
// with a clock change are marked from `dayLengthMinutes`.

export interface GroupedSlot {
  key: string;
  slot: Slot;
  startMs: number;
  /** Its facility's zone. */
  zone: string;
}

export interface SlotRow {
  key: string;
  /** One provider's slots at one facility that day, or every provider's slots starting in one local hour. */
  kind: "provider" | "hour";
  /** The row's provider and facility (for an hour row, its first slot's). */
  providerId: string;
  facilityId: string;
  zone: string;
  slots: GroupedSlot[];
}

/** How a day's slots are laid out: a row per provider, or in time order across providers. */
export type SlotOrder = "provider" | "time";

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
    const rowKey = `${date}|${idKey(slot.providerId)}|${idKey(slot.facilityId)}`;
    let row = rows.get(rowKey);
    if (!row) {
      row = { key: rowKey, kind: "provider", providerId: slot.providerId, facilityId: slot.facilityId, zone, slots: [] };
      rows.set(rowKey, row);
    }
    row.slots.push({ key: slotKey(slot), slot, startMs, zone });
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

/**
 * A day's slots across providers in time order, a row per local hour (so
 * 08:00 with one provider sits above 16:00 with another, whatever their
 * names). The hour is read in each slot's zone with its offset, so the
 * repeated hour of a fall-back day is two rows, in time order.
 */
export function groupSlotsByTime(slots: readonly Slot[], { zoneOf, fallbackZone }: Pick<GroupOptions, "zoneOf" | "fallbackZone">): SlotDay[] {
  const byProvider = groupSlotsByDay(slots, { zoneOf, fallbackZone, providerSortKey: (id) => id });
  return byProvider.map((day) => {
    const hours = new Map<string, SlotRow>();
    for (const entry of day.rows.flatMap((row) => row.slots)) {
      const hourKey = `${day.date}|${localTimeOf(entry.startMs, entry.zone).slice(0, 2)}|${offsetMsAt(entry.startMs, entry.zone)}`;
      let row = hours.get(hourKey);
      if (!row) {
        row = { key: hourKey, kind: "hour", providerId: entry.slot.providerId, facilityId: entry.slot.facilityId, zone: entry.zone, slots: [] };
        hours.set(hourKey, row);
      }
      row.slots.push(entry);
    }
    const rows = [...hours.values()].map((row) => ({ ...row, slots: row.slots.sort((a, b) => a.startMs - b.startMs || a.key.localeCompare(b.key)) }));
    return { ...day, rows: rows.sort((a, b) => (a.slots[0]?.startMs ?? 0) - (b.slots[0]?.startMs ?? 0)) };
  });
}

/** The earliest slot (by instant) across every provider in the list, leaving out `except` (slots the user already holds): what "First available" jumps to. */
export function earliestSlot(days: readonly SlotDay[], except: ReadonlySet<string> = new Set()): GroupedSlot | null {
  let earliest: GroupedSlot | null = null;
  for (const day of days) {
    for (const row of day.rows) {
      const first = row.slots.find((entry) => !except.has(entry.key));
      if (first && (!earliest || first.startMs < earliest.startMs)) earliest = first;
    }
  }
  return earliest;
}

export function countSlots(days: readonly SlotDay[]): number {
  return days.reduce((sum, day) => sum + day.rows.reduce((rowSum, row) => rowSum + row.slots.length, 0), 0);
}
