import type { InventoryChange } from "#contract/clinic-api/inventory.ts";
import type { Facility } from "#contract/clinic-api/people.ts";
import { addDays, localDateOf, localToInstant } from "#contract/time/zoned-time.ts";
import { hhmm, MS_PER_HOUR, MS_PER_MINUTE, utcTimestamp } from "../../seed/format.ts";
import type { Practice } from "../../seed/clinical-catalog.ts";
import type { Random } from "../../seed/random.ts";
import { generateChangeItem, type ChangeType } from "./generate-change-items.ts";
import type { GeneratedProduct } from "./generate-products.ts";
import type { ChangeRecord } from "./inventory-records.ts";

// One facility's inventory changes over the last months: mostly receiving
// sessions, with adjustments, waste and cycle counts; most closed, a few
// cancelled. Every change in the data has closed (the seeds give `closedAt`
// as a timestamp, not nullable), so there are no open ones.

const CHANGE_TYPES = [
  ["receiving", 6],
  ["adjustment", 1.5],
  ["waste", 1.5],
  ["count", 1],
] as const satisfies readonly (readonly [ChangeType, number])[];

const SUPPLIERS = ["McKesson Medical-Surgical", "Henry Schein", "Medline", "Cardinal Health", "Manufacturer direct"];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

const CHANGE_NOTES: Record<ChangeType, readonly string[]> = {
  receiving: ["Cold chain packaging intact.", "Backordered lines to follow.", "Received by front desk, checked in by MA."],
  adjustment: ["Approved by the practice manager.", "See incident log."],
  waste: ["Logged for the state vaccine program.", "Disposed of in the pharmaceutical waste bin."],
  count: ["Quarterly count.", "Counted after the refrigerator was moved."],
};

function nameOf(random: Random, type: ChangeType, createdAt: number): string {
  switch (type) {
    case "receiving":
      return `Receiving - ${random.pick(SUPPLIERS)} PO ${random.digits(6)}`;
    case "adjustment":
      return random.pick(["Adjustment - broken vial", "Adjustment - count correction", "Adjustment - samples added"]);
    case "waste":
      return random.pick(["Expired stock disposal", "Waste - refrigerator temperature excursion", "Waste - opened multi-dose vials"]);
    case "count": {
      const date = new Date(createdAt);
      return `Cycle count - ${MONTHS[date.getUTCMonth()] ?? ""} ${date.getUTCFullYear()}`;
    }
  }
}

function itemCountOf(random: Random, type: ChangeType, cancelled: boolean): number {
  if (cancelled) return random.int(0, 2);
  switch (type) {
    case "receiving":
      return random.int(2, 9);
    case "adjustment":
      return random.int(1, 3);
    case "waste":
      return random.int(1, 4);
    case "count":
      return random.int(4, 10);
  }
}

export interface ChangeGeneration {
  facility: Facility;
  practice: Practice;
  products: readonly GeneratedProduct[];
  now: number;
  referenceYear: number;
}

export function generateChanges(random: Random, { facility, practice, products, now, referenceYear }: ChangeGeneration): ChangeRecord[] {
  // A facility no longer shown (a closed site) has only older history.
  const [minDaysAgo, maxDaysAgo] = facility.isVisible ? [1, 120] : [150, 400];
  const daysAgo = random.sample(Array.from({ length: maxDaysAgo - minDaysAgo + 1 }, (_, i) => minDaysAgo + i), random.int(6, 9)).sort((a, b) => b - a);
  return daysAgo.map((days) => {
    const type = random.weighted(CHANGE_TYPES);
    const cancelled = random.chance(0.1);
    // During the facility's working day, in its own zone.
    const localDate = addDays(localDateOf(now, facility.timezone), -days);
    const createdAt = localToInstant(localDate, hhmm(random.int(8 * 60, 17 * 60)), facility.timezone) + random.int(0, 59_999);
    const closedAt = createdAt + random.int(4, 90) * MS_PER_MINUTE + random.int(0, 59_999);
    const updatedAt = random.chance(0.2) ? Math.min(now, closedAt + random.int(1, 48) * MS_PER_HOUR) : closedAt;
    const id = random.uuid();
    // Products on the shelf then: created before and archived after, compared in whole days with two to spare
    // (a change's local day and a product's instant are each within a day of their offset).
    const stocked = products.filter(
      ({ entry, createdDaysAgo, archivedDaysAgo }) => entry.practices.includes(practice) && createdDaysAgo > days + 2 && (archivedDaysAgo === null || archivedDaysAgo < days - 2),
    );
    const lines = random.sample(stocked, itemCountOf(random, type, cancelled));
    const step = lines.length > 0 ? (closedAt - createdAt) / (lines.length + 1) : 0;
    const items = lines.map(({ product, entry }, index) =>
      generateChangeItem(random, { changeId: id, type, product, entry, createdAt: Math.round(createdAt + step * (index + 1)), referenceYear }),
    );
    const change: InventoryChange = {
      id,
      facilityId: facility.id,
      name: nameOf(random, type, createdAt),
      type,
      status: cancelled ? "cancelled" : "closed",
      notes: cancelled ? "Started in error; cancelled." : random.chance(0.4) ? random.pick(CHANGE_NOTES[type]) : null,
      closedAt: utcTimestamp(closedAt),
      createdAt: utcTimestamp(createdAt),
      updatedAt: utcTimestamp(updatedAt),
      itemCount: items.length,
    };
    return { change, items };
  });
}
