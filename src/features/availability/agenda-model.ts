import { overlapSpans } from "./band-layout.ts";
import type { Band } from "./week-model.ts";
import type { WeekWindow } from "./week-window.ts";

// The agenda: the week as a list a narrow panel can hold without scrolling
// sideways. Per local day, per provider, the provider's bands that overlap
// in real time are one stack: its span, its bands, and the most places
// bookable at once (DESIGN.md: overlapping templates are separate rows and
// add capacity), so "who is bookable when, and how many at once" reads
// without hovering. Bands belong to the day they start on.

export interface AgendaStack {
  /** The first band's key: stable while the week is shown. */
  key: string;
  providerKey: string;
  startMs: number;
  endMs: number;
  /** By start, then key. */
  bands: Band[];
  /** The most places bookable at once within the stack (inactive bands add none). */
  peakCapacity: number;
  /** Where two or more of its active bands overlap, with their summed capacity. */
  overlaps: { startMs: number; endMs: number; total: number }[];
}

export interface AgendaDay {
  date: string;
  /** By start, then the provider's name. */
  stacks: AgendaStack[];
}

function stackOf(bands: Band[]): AgendaStack {
  const first = bands[0];
  if (!first) throw new Error("a stack holds at least one band");
  const startMs = Math.min(...bands.map((band) => band.startMs));
  const endMs = Math.max(...bands.map((band) => band.endMs));
  const inputs = bands.map((band) => ({ key: band.key, startMs: band.startMs, endMs: band.endMs, capacity: band.instance.concurrency, isInactive: band.isInactive }));
  const overlaps = overlapSpans(inputs, startMs, endMs).map(({ startMs: from, endMs: to, total }) => ({ startMs: from, endMs: to, total }));
  const single = bands.filter((band) => !band.isInactive).reduce((most, band) => Math.max(most, band.instance.concurrency), 0);
  const peakCapacity = overlaps.reduce((most, span) => Math.max(most, span.total), single);
  return { key: first.key, providerKey: first.providerKey, startMs, endMs, bands, peakCapacity, overlaps };
}

/** The week's days, each with its stacks; bands carried in from the week before are left out (the agenda lists each band once, on its own day). */
export function buildAgenda(bands: readonly Band[], week: WeekWindow, providerName: (providerKey: string) => string): AgendaDay[] {
  return week.days.map((day) => {
    const byProvider = new Map<string, Band[]>();
    for (const band of bands) {
      if (band.isCarriedIn || band.date !== day.date) continue;
      const list = byProvider.get(band.providerKey) ?? [];
      list.push(band);
      byProvider.set(band.providerKey, list);
    }
    const stacks: AgendaStack[] = [];
    for (const list of byProvider.values()) {
      list.sort((a, b) => a.startMs - b.startMs || (a.key < b.key ? -1 : 1));
      let current: Band[] = [];
      let currentEnd = Number.NEGATIVE_INFINITY;
      for (const band of list) {
        if (current.length > 0 && band.startMs >= currentEnd) {
          stacks.push(stackOf(current));
          current = [];
        }
        current.push(band);
        currentEnd = Math.max(currentEnd, band.endMs);
      }
      if (current.length > 0) stacks.push(stackOf(current));
    }
    stacks.sort((a, b) => a.startMs - b.startMs || providerName(a.providerKey).localeCompare(providerName(b.providerKey)) || (a.key < b.key ? -1 : 1));
    return { date: day.date, stacks };
  });
}
