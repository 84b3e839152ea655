import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { StoredSlotSearch } from "#contract/app-api/last-slot-search.ts";
import { currentCacheIdentity, identityKey, onCacheIdentityChange, sameIdentity, type CacheIdentity } from "#src/api/cache-identity.ts";
import { prepareWriteWhileLeaving } from "#src/api/bff-client.ts";
import { onBffAnswered, tandemRetryDelayMs } from "#src/api/bff-reachability.ts";
import { failingSystemOf } from "#src/api/failing-system.ts";
import { lastSlotSearchQuery, saveLastSlotSearch, saveLastSlotSearchWhileLeaving } from "#src/api/last-slot-search-queries.ts";
import { queryKeysOf } from "#src/api/query-keys.ts";
import { filtersOf, hasSlotFilters, validateSlotSearch, validateStoredSlotSearch, type SlotSearchParams } from "./slot-search-params.ts";

// The slot finder's last filters, each user's own (organization and user:
// ADR 0025), kept three ways:
// - in memory and the tab's sessionStorage, so leaving for another view and
//   coming back (the nav's Slots link) returns to the same search at once;
// - by the BFF (PUT /api/slots/last-search, a moment after the search, so a
//   burst of changes is one write), because a reload of the whole EHR page
//   opens Tandem's frame at its start address, and the browser denies a
//   cross-site frame its sessionStorage: the slot finder, opened without
//   filters, asks the BFF for them (keptSlotSearch, in the route's beforeLoad).
//   A save still waiting when the page goes (a reload right after a search)
//   is sent then, as a keepalive PUT. A save that met a system failing
//   (Tandem's server restarting or unreachable) waits and is sent again on
//   Tandem's backoff, or at once when its server answers, until it is kept
//   or a newer search replaces it.
// Ids, dates and filter values only, never patient data. Another identity
// forgets the previous one's search and drops any save not yet sent.

const STORAGE_KEY = "tandem.lastSlotSearch";
/** A search's filters reach the BFF this long after the last change of the URL's filters (an order toggled twice is one write). */
export const SAVE_DELAY_MS = 600;

let last: { identity: string; params: SlotSearchParams } | null = null;
let pendingSave: { identity: CacheIdentity; search: StoredSlotSearch; timer: ReturnType<typeof setTimeout>; queryClient: QueryClient; failures: number } | null = null;
/** What the BFF holds for the current identity, as JSON (a search read back or saved is not saved again). */
let keptJson: string | null = null;

onCacheIdentityChange(() => {
  last = null;
  keptJson = null;
  if (pendingSave) clearTimeout(pendingSave.timer);
  pendingSave = null;
});

function storageRead(): { identity: string; params: SlotSearchParams } | null {
  try {
    const stored = sessionStorage.getItem(STORAGE_KEY);
    if (!stored) return null;
    const parsed = JSON.parse(stored) as { identity?: unknown; params?: unknown };
    if (typeof parsed.identity !== "string" || typeof parsed.params !== "object" || parsed.params === null) return null;
    return { identity: parsed.identity, params: validateSlotSearch(parsed.params as Record<string, unknown>) };
  } catch {
    // Unavailable in a sandboxed or cross-site frame, or mangled: the BFF's copy serves.
    return null;
  }
}

function storageWrite(entry: { identity: string; params: SlotSearchParams }): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(entry));
  } catch {
    // Storage may be unavailable in a sandboxed frame: memory and the BFF still serve.
  }
}

async function sendSave(): Promise<void> {
  const save = pendingSave;
  pendingSave = null;
  // Signed in as someone else since: the search was the previous user's, and is not theirs to keep.
  if (!save || !sameIdentity(save.identity, currentCacheIdentity())) return;
  const json = JSON.stringify(save.search);
  if (json === keptJson) return;
  try {
    const answer = await saveLastSlotSearch(save.search);
    if (!sameIdentity(save.identity, currentCacheIdentity())) return;
    keptJson = json;
    save.queryClient.setQueryData(queryKeysOf(save.identity).lastSlotSearch(), answer);
  } catch (error) {
    // Refused for what it is (a 4xx): not sent again. Otherwise it waits (and goes as the page goes) unless a newer search or another user came meanwhile.
    if (failingSystemOf(error) === null || pendingSave !== null || !sameIdentity(save.identity, currentCacheIdentity())) return;
    const failures = save.failures + 1;
    pendingSave = { ...save, failures, timer: setTimeout(() => void sendSave(), tandemRetryDelayMs(failures)) };
    prepareWriteWhileLeaving();
  }
}

/** A save waiting after a failure goes at once when Tandem's server answers again. */
function sendWaitingSaveNow(): void {
  if (!pendingSave || pendingSave.failures === 0) return;
  clearTimeout(pendingSave.timer);
  void sendSave();
}

/** The page is going (a reload, the EHR leaving): a save still waiting goes now, or the search just run would be lost. */
function sendPendingSaveAsPageGoes(): void {
  const save = pendingSave;
  if (!save) return;
  clearTimeout(save.timer);
  pendingSave = null;
  if (!sameIdentity(save.identity, currentCacheIdentity()) || JSON.stringify(save.search) === keptJson) return;
  saveLastSlotSearchWhileLeaving(save.search);
}

if (typeof window !== "undefined") window.addEventListener("pagehide", sendPendingSaveAsPageGoes);
onBffAnswered(sendWaitingSaveNow);

/** Remembers the URL's filters as the current user's last search, and has the BFF keep them (a moment later). */
export function rememberSlotSearch(params: SlotSearchParams, queryClient: QueryClient): void {
  const identity = currentCacheIdentity();
  const entry = { identity: identityKey(identity), params };
  last = entry;
  storageWrite(entry);
  const search = filtersOf(params);
  if (identity === null || Object.keys(search).length === 0) return;
  if (pendingSave) clearTimeout(pendingSave.timer);
  pendingSave = { identity, search, queryClient, failures: 0, timer: setTimeout(() => void sendSave(), SAVE_DELAY_MS) };
  // A token set aside inside the EHR, for the save to go as the page goes (nothing can wait for the EHR then).
  prepareWriteWhileLeaving();
}

/** The current user's last filters in this tab, for links back to the slot finder; `{}` when none (the slot finder then asks the BFF). */
export function lastSlotSearch(): SlotSearchParams {
  const identity = identityKey(currentCacheIdentity());
  if (last?.identity === identity) return last.params;
  const stored = storageRead();
  if (stored?.identity === identity) last = stored;
  return last?.identity === identity ? last.params : {};
}

/** Remembers each search the slot finder's URL carries (rememberSlotSearch). */
export function useRememberSlotSearch(urlParams: SlotSearchParams): void {
  const queryClient = useQueryClient();
  useEffect(() => rememberSlotSearch(urlParams, queryClient), [urlParams, queryClient]);
}

/**
 * The user's last search as the BFF kept it, for the slot finder opened
 * without filters in its URL (the `/slots` route's beforeLoad): checked as a
 * link is, unknown values and a window begun before `today` (a local date)
 * dropped and named. Null without a kept search with a filter still usable,
 * or when it cannot be read (the slot finder then opens on the defaults).
 */
export async function keptSlotSearch(queryClient: QueryClient, today: string): Promise<SlotSearchParams | null> {
  let kept: Record<string, unknown> | null;
  try {
    kept = (await queryClient.ensureQueryData(lastSlotSearchQuery())).search;
  } catch {
    return null;
  }
  if (kept === null) return null;
  // What the BFF holds, in the order a save writes it (the store may keep an object's keys in another): not saved again.
  keptJson = JSON.stringify(filtersOf(validateSlotSearch(kept)));
  const params = validateStoredSlotSearch(kept, today);
  return hasSlotFilters(params) ? params : null;
}
