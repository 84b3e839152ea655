import { MINUTES_PER_DAY, wallMinutesFrom, type WeekWindow } from "./week-window.ts";

// Where each band goes in the week grid. Bands are drawn at their local
// wall-clock times (a 01:00-04:00 band spans 01:00-04:00 on the grid even on
// a day its real length is 2 or 2½ hours); overlapping bands are put side by
// side in lanes, never merged (DESIGN.md: overlapping templates are separate
// rows and add capacity); and where active bands overlap in real time, their
// capacities are summed.

export interface BandInput {
  /** Unique within the layout. */
  key: string;
  startMs: number;
  endMs: number;
  /** The template's concurrency. */
  capacity: number;
  /** Drawn (greyed) and given a lane, but adds no capacity. */
  isInactive: boolean;
}

export interface DaySegment {
  key: string;
  /** Wall-clock minutes after local midnight (0-1440). */
  startMinute: number;
  endMinute: number;
  /** The band started on an earlier day (instances belong to the day they start on). */
  isContinuation: boolean;
  /** The band goes on past this day's end. */
  continuesAfter: boolean;
  /** 0-based lane among the bands it overlaps on the grid. */
  lane: number;
  /** Lanes of its overlap cluster: the band is `1 / laneCount` of the day's width. */
  laneCount: number;
}

export interface OverlapPart {
  key: string;
  capacity: number;
}

/** A stretch of real time in which two or more active bands are bookable at once. */
export interface OverlapSpan {
  startMs: number;
  endMs: number;
  startMinute: number;
  endMinute: number;
  /** The summed capacity. */
  total: number;
  /** The overlapping bands, by start then key. */
  parts: OverlapPart[];
}

export interface DayLayout {
  date: string;
  segments: DaySegment[];
  overlaps: OverlapSpan[];
  /** The most lanes any cluster of this day needs. */
  laneCount: number;
}

/** Wall minutes of an instant on `date`, clamped to the day. */
function wallMinute(date: string, epochMs: number, zone: string): number {
  return Math.min(MINUTES_PER_DAY, Math.max(0, wallMinutesFrom(date, epochMs, zone)));
}

/** Lanes for the day's segments (the usual calendar layout: clusters of transitively overlapping segments share a lane count). */
function assignLanes(segments: Omit<DaySegment, "lane" | "laneCount">[]): DaySegment[] {
  const sorted = [...segments].sort((a, b) => a.startMinute - b.startMinute || b.endMinute - a.endMinute || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const placed: DaySegment[] = [];
  let cluster: DaySegment[] = [];
  let laneEnds: number[] = [];
  let clusterEnd = -Infinity;
  const closeCluster = () => {
    for (const segment of cluster) segment.laneCount = laneEnds.length;
    cluster = [];
    laneEnds = [];
  };
  for (const segment of sorted) {
    if (segment.startMinute >= clusterEnd) closeCluster();
    let lane = laneEnds.findIndex((end) => end <= segment.startMinute);
    if (lane < 0) {
      lane = laneEnds.length;
      laneEnds.push(segment.endMinute);
    } else {
      laneEnds[lane] = segment.endMinute;
    }
    const laid: DaySegment = { ...segment, lane, laneCount: 1 };
    cluster.push(laid);
    placed.push(laid);
    clusterEnd = cluster.length === 1 ? segment.endMinute : Math.max(clusterEnd, segment.endMinute);
  }
  closeCluster();
  return placed;
}

/** Stretches of real time within [fromMs, toMs) where two or more of the bands are active, with their summed capacity. */
export function overlapSpans(bands: readonly BandInput[], fromMs: number, toMs: number): Omit<OverlapSpan, "startMinute" | "endMinute">[] {
  const active = bands.filter((band) => !band.isInactive && band.endMs > fromMs && band.startMs < toMs);
  const boundaries = [...new Set(active.flatMap((band) => [Math.max(band.startMs, fromMs), Math.min(band.endMs, toMs)]))].sort((a, b) => a - b);
  const order = (a: BandInput, b: BandInput) => a.startMs - b.startMs || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  const spans: Omit<OverlapSpan, "startMinute" | "endMinute">[] = [];
  for (let index = 0; index + 1 < boundaries.length; index += 1) {
    const startMs = boundaries[index] ?? 0;
    const endMs = boundaries[index + 1] ?? 0;
    const during = active.filter((band) => band.startMs <= startMs && band.endMs >= endMs).sort(order);
    if (during.length < 2) continue;
    const parts = during.map((band) => ({ key: band.key, capacity: band.capacity }));
    const previous = spans.at(-1);
    if (previous && previous.endMs === startMs && previous.parts.map((part) => part.key).join("\u0000") === parts.map((part) => part.key).join("\u0000")) {
      previous.endMs = endMs;
      continue;
    }
    spans.push({ startMs, endMs, total: parts.reduce((sum, part) => sum + part.capacity, 0), parts });
  }
  return spans;
}

/**
 * Each day's segments (a band crossing midnight is drawn on both days; its
 * start day holds the band, the next a continuation), lanes and overlaps,
 * positioned on the wall clock of the week's zone. Bands that start before
 * the week only give continuations.
 */
export function layoutWeek(bands: readonly BandInput[], week: WeekWindow): DayLayout[] {
  return week.days.map((day) => {
    const touching = bands.filter((band) => band.endMs > day.startMs && band.startMs < day.endMs);
    const segments = touching.map((band) => {
      const isContinuation = band.startMs < day.startMs;
      const continuesAfter = band.endMs > day.endMs;
      const startMinute = isContinuation ? 0 : wallMinute(day.date, band.startMs, week.zone);
      let endMinute = continuesAfter ? MINUTES_PER_DAY : wallMinute(day.date, band.endMs, week.zone);
      // A band inside a fall-back fold can end at an earlier wall time than it starts: keep its real length.
      if (endMinute <= startMinute) endMinute = Math.min(MINUTES_PER_DAY, startMinute + Math.max(1, (Math.min(band.endMs, day.endMs) - Math.max(band.startMs, day.startMs)) / 60_000));
      return { key: band.key, startMinute, endMinute, isContinuation, continuesAfter };
    });
    const laid = assignLanes(segments);
    const overlaps = overlapSpans(touching, day.startMs, day.endMs).map((span) => ({
      ...span,
      startMinute: wallMinute(day.date, span.startMs, week.zone),
      endMinute: span.endMs >= day.endMs ? MINUTES_PER_DAY : wallMinute(day.date, span.endMs, week.zone),
    }));
    return { date: day.date, segments: laid, overlaps, laneCount: laid.reduce((most, segment) => Math.max(most, segment.laneCount), 0) };
  });
}

/** The wall-clock hours the grid shows: from the earliest segment's hour to the latest's end, at least `minimum`. */
export function visibleHours(days: readonly DayLayout[], minimum: { fromHour: number; toHour: number } = { fromHour: 8, toHour: 18 }): { fromHour: number; toHour: number } {
  let from = minimum.fromHour * 60;
  let to = minimum.toHour * 60;
  for (const day of days) {
    for (const segment of day.segments) {
      from = Math.min(from, segment.startMinute);
      to = Math.max(to, segment.endMinute);
    }
  }
  return { fromHour: Math.floor(from / 60), toHour: Math.min(24, Math.ceil(to / 60)) };
}
