// When the nightly sweep runs: once per emulator day, at the first sync on or
// after the sweep hour (UTC). The seeds say only that a nightly sweep exists;
// the hour is the emulator's choice.

const MS_PER_DAY = 86_400_000;
const MS_PER_HOUR = 3_600_000;

/** The latest nightly slot at or before `now`: `sweepHourUtc`:00 UTC of today, or of yesterday before that hour. */
export function sweepSlotAt(now: number, sweepHourUtc: number): number {
  const offset = sweepHourUtc * MS_PER_HOUR;
  return Math.floor((now - offset) / MS_PER_DAY) * MS_PER_DAY + offset;
}

/** When the next automatic sweep is due: tonight's slot if it has not had one (it runs at the next sync), else tomorrow's. */
export function nextSweepAt(now: number, lastSweepSlot: number, sweepHourUtc: number): number {
  const slot = sweepSlotAt(now, sweepHourUtc);
  return slot > lastSweepSlot ? slot : slot + MS_PER_DAY;
}
