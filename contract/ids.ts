// Identifier rules of the service (seed 000, "Conventions"): older paths use
// UUIDs; v3 resources use a prefix + 32 hex characters; v3 path parameters
// accept either form; `X-Organization-Id` always needs a raw UUID. This module
// is the one place for them: the patterns, the forms, and the one key under
// which both forms of an id compare equal.

export const ID_PREFIXES = ["pat", "fac", "prv", "atp", "avt", "img"] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

/** A raw UUID as a pattern source: no anchors, no groups, lower-case hex (add the `i` flag to accept upper case). */
export const UUID_PATTERN = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/** A prefixed id of one of `kinds` as a pattern source: no anchors, no capturing groups. */
export const prefixedIdPattern = (kinds: readonly IdPrefix[] = ID_PREFIXES) => `(?:${kinds.join("|")})_[0-9a-f]{32}`;

/** An id in either form (a raw UUID, or a prefixed id of one of `kinds`) as a pattern source: no anchors, no capturing groups. */
export const idPattern = (kinds: readonly IdPrefix[] = ID_PREFIXES) => `(?:${UUID_PATTERN}|${prefixedIdPattern(kinds)})`;

const RAW_UUID = new RegExp(`^${UUID_PATTERN}$`, "i");
const PREFIXED = new RegExp(`^(${ID_PREFIXES.join("|")})_([0-9a-f]{32})$`, "i");

export function isRawUuid(value: string): boolean {
  return RAW_UUID.test(value);
}

export function isPrefixedId(value: string, prefix?: IdPrefix): boolean {
  const match = PREFIXED.exec(value);
  return match !== null && (prefix === undefined || match[1]?.toLowerCase() === prefix);
}

/** `fac_0123…` from a raw UUID (or an id already in that prefix). */
export function toPrefixedId(prefix: IdPrefix, id: string): string {
  if (isPrefixedId(id, prefix)) return id.toLowerCase();
  if (!isRawUuid(id)) throw new Error(`not a UUID or ${prefix}_ id: ${id}`);
  return `${prefix}_${id.replaceAll("-", "").toLowerCase()}`;
}

/** The raw UUID behind a prefixed id (or the raw UUID itself, lower-cased). */
export function toRawUuid(id: string): string {
  if (isRawUuid(id)) return id.toLowerCase();
  const match = PREFIXED.exec(id);
  if (!match?.[2]) throw new Error(`not a UUID or prefixed id: ${id}`);
  const hex = match[2].toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Parses a v3 path parameter: a prefixed id of the expected kind or a raw UUID.
 * Returns the raw UUID, or null when the value is neither.
 */
export function parseV3PathId(value: string, prefix: IdPrefix): string | null {
  if (isRawUuid(value)) return value.toLowerCase();
  if (isPrefixedId(value, prefix)) return toRawUuid(value);
  return null;
}

/**
 * The one key of an identifier, whatever form it came in: the lower-case raw
 * UUID behind a raw UUID or a prefixed id of any kind (pickers give raw UUIDs,
 * slots and templates `prv_`/`fac_` ids); any other string as given. Maps and
 * sets keyed by it, and {@link isSameId}, compare ids in either form.
 */
export function idKey(id: string): string {
  return isRawUuid(id) || isPrefixedId(id) ? toRawUuid(id) : id;
}

/**
 * The same identifier in either form compares equal; other strings only to
 * themselves. With `kind`, both must also be ids of that kind (a raw UUID or
 * a `kind_` id): a `fac_` id is then not the same as a `prv_` one.
 */
export function isSameId(a: string, b: string, kind?: IdPrefix): boolean {
  if (kind !== undefined && (parseV3PathId(a, kind) === null || parseV3PathId(b, kind) === null)) return false;
  return idKey(a) === idKey(b);
}

const cachedKeys = new Map<string, string>();
/** Entries the cache of {@link cachedIdKey} holds before it starts over. */
export const ID_KEY_CACHE_LIMIT = 50_000;

/**
 * {@link idKey}, remembered: for loops that ask for the same few ids again and
 * again (a week of availability bands), where a lookup is about ten times
 * cheaper than the patterns. Bounded; for the browser, not for a server that
 * sees every organization's ids.
 */
export function cachedIdKey(id: string): string {
  let key = cachedKeys.get(id);
  if (key === undefined) {
    key = idKey(id);
    if (cachedKeys.size >= ID_KEY_CACHE_LIMIT) cachedKeys.clear();
    cachedKeys.set(id, key);
  }
  return key;
}
