import { createContext, useContext, useMemo, type ReactNode } from "react";
import { APP_LOCALE, type TimeDisplay } from "./time-format.ts";

// The user's side of every time on screen: the browser's locale and zone,
// read here so src/lib/time-format.ts stays pure. Tests (and anything that
// must not follow the machine) pin them with UserTimeSettingsProvider.

export interface UserTimeSettings {
  readonly locale: string;
  readonly userZone: string;
}

const UserTimeSettingsContext = createContext<UserTimeSettings | null>(null);

export function UserTimeSettingsProvider({ settings, children }: { settings: UserTimeSettings; children: ReactNode }) {
  return <UserTimeSettingsContext.Provider value={settings}>{children}</UserTimeSettingsContext.Provider>;
}

/** How long the browser's zone, read once, is reused: reading it costs a `resolvedOptions()` per grid mounted (profiled). */
const ZONE_READ_MS = 60_000;
let browserZone: { zone: string; readAtMs: number } | null = null;

/** The browser's locale (`navigator.language`; APP_LOCALE where there is none, as under Node) and zone (read again after a minute). */
export function browserTimeSettings(): UserTimeSettings {
  const locale = typeof navigator === "undefined" ? "" : navigator.language;
  const nowMs = Date.now();
  if (!browserZone || nowMs - browserZone.readAtMs > ZONE_READ_MS || nowMs < browserZone.readAtMs) browserZone = { zone: Intl.DateTimeFormat().resolvedOptions().timeZone, readAtMs: nowMs };
  return { locale: locale || APP_LOCALE, userZone: browserZone.zone };
}

/** The user's locale and zone: the pinned ones, else the browser's. */
export function useUserTimeSettings(): UserTimeSettings {
  const pinned = useContext(UserTimeSettingsContext);
  return useMemo(() => pinned ?? browserTimeSettings(), [pinned]);
}

/** How this user reads times on the facility's clock in `zone`. */
export function useTimeDisplay(zone: string): TimeDisplay {
  const settings = useUserTimeSettings();
  return useMemo(() => ({ ...settings, zone }), [settings, zone]);
}
