// Money as integer cents inside the emulator and as the seeds' decimal
// strings with two decimals on the wire ("-12.30"), so sums never drift.

export function formatCents(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const absolute = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, "0")}`;
}

/** `share` of an amount, rounded half up to the cent. */
export function shareOf(cents: number, share: number): number {
  return Math.round(cents * share);
}
