import type { Slot } from "#contract/clinic-api/schedule.ts";
import { cachedIdKey } from "#contract/ids.ts";
import { dayLengthMinutes, localDateOf, offsetMsAt } from "#contract/time/zoned-time.ts";
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
  /** The zones of the row's slots, east to west (an hour row can span facilities in several zones). */
  zones: string[];
  slots: GroupedSlot[];
  /** An hour with more slots than one row holds is split into parts (a large group lists hundreds an hour). */
  part?: { index: number; count: number };
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

/** A slot as the list places it: its key, instant, zone, local date and provider row. */
export interface PlacedSlot extends GroupedSlot {
  date: string;
  rowKey: string;
}

// Worked out once per slot object and zone: a large group's list (about 23,000 slots) is grouped
// again on every view switch and every hold, and the keys and local dates are most of that work.
const placedSlots = new WeakMap<Slot, PlacedSlot>();

// A start's instant and local date, per zone and start as written: a group's providers share a
// few thousand start times, so each is parsed and placed on its day once, not once per slot.
const startsInZones = new Map<string, { startMs: number; date: string }>();
const MAX_REMEMBERED_STARTS = 50_000;

function startInZone(startsAt: string, zone: string): { startMs: number; date: string } {
  const known = `${zone} ${startsAt}`;
  let start = startsInZones.get(known);
  if (!start) {
    const startMs = Date.parse(startsAt);
    start = { startMs, date: localDateOf(startMs, zone) };
    if (startsInZones.size >= MAX_REMEMBERED_STARTS) startsInZones.clear();
    startsInZones.set(known, start);
  }
  return start;
}

/** The slot placed in its facility's zone (remembered for this slot object). */
export function placedSlot(slot: Slot, zone: string): PlacedSlot {
  const remembered = placedSlots.get(slot);
  if (remembered && remembered.zone === zone) return remembered;
  const { startMs, date } = startInZone(slot.startsAt, zone);
  const placed = { key: slotKey(slot), slot, startMs, zone, date, rowKey: `${date}|${cachedIdKey(slot.providerId)}|${cachedIdKey(slot.facilityId)}` };
  placedSlots.set(slot, placed);
  return placed;
}

export function groupSlotsByDay(slots: readonly Slot[], { zoneOf, fallbackZone, providerSortKey, facilitySortKey = (id) => id }: GroupOptions): SlotDay[] {
  const days = new Map<string, Map<string, SlotRow>>();
  const zonesByDay = new Map<string, Set<string>>();
  for (const slot of slots) {
    const entry = placedSlot(slot, zoneOf(slot.facilityId) ?? fallbackZone);
    const { zone, date } = entry;
    let rows = days.get(date);
    if (!rows) {
      rows = new Map();
      days.set(date, rows);
      zonesByDay.set(date, new Set());
    }
    zonesByDay.get(date)?.add(zone);
    let row = rows.get(entry.rowKey);
    if (!row) {
      row = { key: entry.rowKey, kind: "provider", providerId: slot.providerId, facilityId: slot.facilityId, zone, zones: [zone], slots: [] };
      rows.set(entry.rowKey, row);
    }
    row.slots.push(entry);
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

const MS_PER_HOUR = 3_600_000;
/** The most slots an hour row holds before it is split: what the list draws stays a few screenfuls of buttons. */
export const MAX_SLOTS_PER_HOUR_ROW = 48;

function splitIntoParts(row: SlotRow): SlotRow[] {
  if (row.slots.length <= MAX_SLOTS_PER_HOUR_ROW) return [row];
  const count = Math.ceil(row.slots.length / MAX_SLOTS_PER_HOUR_ROW);
  return Array.from({ length: count }, (_, index) => ({
    ...row,
    key: `${row.key}|${index + 1}`,
    slots: row.slots.slice(index * MAX_SLOTS_PER_HOUR_ROW, (index + 1) * MAX_SLOTS_PER_HOUR_ROW),
    part: { index: index + 1, count },
  }));
}

/**
 * A day's slots across providers in time order, a row per hour of the
 * instant (so 08:00 with one provider sits above 16:00 with another, whatever
 * their names, and 9:00 in New York shares its row with 8:00 in Chicago: the
 * same hour). The repeated hour of a fall-back day is two hours of the
 * instant, so two rows, in time order.
 */
export function groupSlotsByTime(slots: readonly Slot[], { zoneOf, fallbackZone }: Pick<GroupOptions, "zoneOf" | "fallbackZone">): SlotDay[] {
  const byProvider = groupSlotsByDay(slots, { zoneOf, fallbackZone, providerSortKey: (id) => id });
  return byProvider.map((day) => {
    const entries = day.rows.flatMap((row) => row.slots).sort((a, b) => a.startMs - b.startMs || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const hours = new Map<number, SlotRow>();
    for (const entry of entries) {
      const hour = Math.floor(entry.startMs / MS_PER_HOUR);
      let row = hours.get(hour);
      if (!row) {
        row = { key: `${day.date}|${hour}`, kind: "hour", providerId: entry.slot.providerId, facilityId: entry.slot.facilityId, zone: entry.zone, zones: [], slots: [] };
        hours.set(hour, row);
      }
      if (!row.zones.includes(entry.zone)) row.zones.push(entry.zone);
      row.slots.push(entry);
    }
    const rows = [...hours.values()];
    for (const row of rows) {
      const at = row.slots[0]?.startMs ?? 0;
      row.zones.sort((a, b) => offsetMsAt(at, b) - offsetMsAt(at, a) || a.localeCompare(b));
    }
    return { ...day, rows: rows.flatMap(splitIntoParts) };
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
