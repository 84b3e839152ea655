import { offsetMsAt } from "../../contract/time/zoned-time.ts";

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

const zoneNames = new Map<string, string>();
/** Locales tried in turn for a zone's short name: the first that has a name rather than "GMT+11" wins (EST, AEDT, BST, IST). */
const ZONE_NAME_LOCALES = ["en-US", "en-AU", "en-GB", "en-IN"];

/** The zone's short name at an instant ("EST", "AEDT", else "GMT+10:30"). */
export function zoneAbbreviation(epochMs: number, zone: string): string {
  const key = `${zone}|${offsetMsAt(epochMs, zone)}`;
  let name = zoneNames.get(key);
  if (name === undefined) {
    const candidates = ZONE_NAME_LOCALES.map(
      (locale) =>
        new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: "short" })
          .formatToParts(epochMs)
          .find((part) => part.type === "timeZoneName")?.value ?? zone,
    );
    name = candidates.find((candidate) => !/^(GMT|UTC)[+-]/.test(candidate)) ?? candidates[0] ?? zone;
    zoneNames.set(key, name);
  }
  return name;
}

export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
