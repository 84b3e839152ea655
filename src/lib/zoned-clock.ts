// Times shown in the facility's zone (STYLE.md 9): formatting only; instants
// and conversions live in contract/time.

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${zone}|${JSON.stringify(options)}`;
  let cached = formatters.get(key);
  if (!cached) {
    cached = new Intl.DateTimeFormat(undefined, { ...options, timeZone: zone });
    formatters.set(key, cached);
  }
  return cached;
}

/** e.g. "09:41" in the zone. */
export function formatClock(epochMs: number, zone: string): string {
  return formatter(zone, { hour: "2-digit", minute: "2-digit" }).format(epochMs);
}

/** e.g. "EST" or "GMT+10:30": the zone's short name at that instant. */
export function zoneAbbreviation(epochMs: number, zone: string): string {
  return formatter(zone, { timeZoneName: "short" }).formatToParts(epochMs).find((part) => part.type === "timeZoneName")?.value ?? zone;
}

/** e.g. "Mon 23 Nov" in the zone. */
export function formatDay(epochMs: number, zone: string): string {
  return formatter(zone, { weekday: "short", day: "numeric", month: "short" }).format(epochMs);
}

export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
