import { isPrefixedId, isRawUuid, toRawUuid } from "../../../contract/ids.ts";

// The pickers give providers and facilities as raw UUIDs (v1), templates as
// `prv_`/`fac_` (v3): one normalised key per identifier, so maps and sets
// compare them in either form (contract/ids.ts).

const keys = new Map<string, string>();
const KEY_CACHE_LIMIT = 50_000;

/** The raw UUID behind an id in either form; anything else as given. Memoised: a week of bands asks for the same ids again and again. */
export function idKey(id: string): string {
  let key = keys.get(id);
  if (key === undefined) {
    key = isRawUuid(id) || isPrefixedId(id) ? toRawUuid(id) : id;
    if (keys.size >= KEY_CACHE_LIMIT) keys.clear();
    keys.set(id, key);
  }
  return key;
}
