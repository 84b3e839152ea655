// The normalised id key lives in contract/ids.ts (`cachedIdKey`). This name
// stays only for band-load.tsx, which imports it from here; import
// `cachedIdKey` from contract/ids.ts instead, and delete this file once
// band-load.tsx does.
export { cachedIdKey as idKey } from "../../../contract/ids.ts";
