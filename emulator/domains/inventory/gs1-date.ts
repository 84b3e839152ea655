// GS1 dates `YYMMDD` (AIs 11-17), GS1 General Specifications 7.12: the
// century is the one that puts the year at most 50 years ahead of the
// reference year or 49 behind it, and day 00 means the last day of the month.

const pad2 = (value: number) => String(value).padStart(2, "0");

function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/** The four-digit year of a two-digit `yy`, relative to `referenceYear` (the reader's current year). */
export function gs1Year(yy: number, referenceYear: number): number {
  const century = Math.floor(referenceYear / 100) * 100;
  const difference = yy - (referenceYear % 100);
  if (difference >= 51) return century - 100 + yy;
  if (difference <= -50) return century + 100 + yy;
  return century + yy;
}

/** `YYYY-MM-DD` of a GS1 `YYMMDD`; null when it names no day (month 00 or 13, day 31 in a 30-day month…). */
export function gs1DateToIso(yymmdd: string, referenceYear: number): string | null {
  const match = /^(\d\d)(\d\d)(\d\d)$/.exec(yymmdd);
  if (!match) return null;
  const year = gs1Year(Number(match[1]), referenceYear);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12) return null;
  const lastDay = daysInMonth(year, month);
  if (day > lastDay) return null;
  return `${year}-${pad2(month)}-${pad2(day === 0 ? lastDay : day)}`;
}

/** `YYMMDD` of a year, month and day; day 0 writes a month-only date (`…00`). */
export function gs1Date(year: number, month: number, day: number): string {
  return `${pad2(year % 100)}${pad2(month)}${pad2(day)}`;
}
