import type { AvailabilityLoadResponse, BandLoad, ProviderDayLoad } from "#contract/app-api/availability-load.ts";
import { cachedIdKey as idKey } from "#contract/ids.ts";
import type { Band } from "./week-model.ts";

// The booked load on the availability views (ADR 0020): each band's places
// taken and left, and each provider's day, matched to the view's own bands
// by template and start instant, drawn as a fill with the numbers beside it.

export interface LoadIndex {
  ofBand: (band: Band) => BandLoad | null;
  ofDay: (providerKey: string, date: string) => ProviderDayLoad | null;
}

export const NO_LOAD: LoadIndex = { ofBand: () => null, ofDay: () => null };

export function indexLoad(load: AvailabilityLoadResponse): LoadIndex {
  const bands = new Map(load.bands.map((band) => [`${idKey(band.templateId)}|${Date.parse(band.startsAt)}`, band]));
  const days = new Map(load.days.map((day) => [`${idKey(day.providerId)}|${day.date}`, day]));
  return {
    ofBand: (band) => bands.get(`${band.templateKey}|${band.startMs}`) ?? null,
    ofDay: (providerKey, date) => days.get(`${providerKey}|${date}`) ?? null,
  };
}

/** "3 of 12 taken": the words a band's or a day's load is written in. */
export function loadText(load: { taken: number; capacity: number }): string {
  return load.capacity === 0 ? "no places" : `${load.taken} of ${load.capacity} taken`;
}

/**
 * What is left: "9 left" for a band wholly ahead; where some positions have
 * passed, only the places still to come ("4 left from now", "none left from
 * now"): a past position's free place cannot be booked.
 */
export function leftText(load: { capacity: number; remaining: number; open: number }): string {
  if (load.capacity === 0) return "";
  if (load.open === load.remaining) return `${load.remaining} left`;
  return load.open === 0 ? "none left from now" : `${load.open} left from now`;
}

/** A thin bar filled in proportion to the places taken, with the numbers in words beside or under it. */
export function LoadFill({ load, className = "" }: { load: { taken: number; capacity: number; remaining: number; open: number }; className?: string }) {
  const share = load.capacity === 0 ? 0 : Math.min(1, load.taken / load.capacity);
  return (
    <span data-testid="availability-load" data-taken={load.taken} data-capacity={load.capacity} className={`block ${className}`}>
      <span aria-hidden="true" className="mb-0.5 block h-1.5 w-full overflow-hidden rounded-full border border-slate-500 bg-white">
        <span className="block h-full bg-slate-700" style={{ width: `${Math.round(share * 100)}%` }} />
      </span>
      <span className="block tabular-nums">
        {loadText(load)}
        {load.capacity > 0 ? `, ${leftText(load)}` : ""}
      </span>
    </span>
  );
}
