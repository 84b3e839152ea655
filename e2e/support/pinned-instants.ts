// The instants the e2e suite runs at (DESIGN.md: tests never depend on the
// wall clock). The emulator's data is generated relative to its clock, so
// each instant is a fixed, reproducible clinic: the whole suite runs at the
// first; the slot finder's specs run again at the other two, where the hour
// and the day have caught out date arithmetic before.
export const PINNED_INSTANTS = {
  /** Tuesday 06:40 in New York (EST), 05:40 in Chicago: before the first slot of the day. */
  earlyMorning: "2026-11-17T11:40:00.000Z",
  /** Wednesday 23:20 in New York, 22:20 in Chicago: today has no slot left. */
  lateEvening: "2026-11-19T04:20:00.000Z",
  /** Sunday 1 November 2026, 09:00 in New York after the fall-back at 02:00 EDT: a 25-hour day. */
  dstChangeDay: "2026-11-01T14:00:00.000Z",
} as const;
