import { offsetMsAt } from "../../contract/time/zoned-time.ts";

// The zone's short name and the browser's zone. Times on screen are written
// by src/lib/time-format.ts; instants and conversions live in contract/time.

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
