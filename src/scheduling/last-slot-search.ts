import { validateSlotSearch, type SlotSearchParams } from "./slot-search-params.ts";

// The slot finder's last filters, so leaving for another view and coming
// back (the nav's Slots link) returns to the same search, not the defaults.
// Kept for the tab in sessionStorage (ids and dates only, no patient data),
// so a reload of another view still remembers them.

const STORAGE_KEY = "tandem.lastSlotSearch";
let last: SlotSearchParams | null = null;

export function rememberSlotSearch(params: SlotSearchParams): void {
  last = params;
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(params));
  } catch {
    // Storage may be unavailable in a sandboxed frame: memory still serves this page.
  }
}

export function lastSlotSearch(): SlotSearchParams {
  if (last) return last;
  try {
    const stored = sessionStorage.getItem(STORAGE_KEY);
    if (stored) last = validateSlotSearch(JSON.parse(stored) as Record<string, unknown>);
  } catch {
    // Unreadable or mangled: the defaults.
  }
  return last ?? {};
}
