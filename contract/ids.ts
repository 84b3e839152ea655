// Identifier rules of the service (seed 000, "Conventions"): older paths use
// UUIDs; v3 resources use a prefix + 32 hex characters; v3 path parameters
// accept either form; `X-Organization-Id` always needs a raw UUID.

export const ID_PREFIXES = ["pat", "fac", "prv", "atp", "avt", "img"] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

const RAW_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PREFIXED = /^(pat|fac|prv|atp|avt|img)_([0-9a-f]{32})$/i;

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

/** The same identifier in either form compares equal. */
export function isSameId(a: string, b: string): boolean {
  try {
    return toRawUuid(a) === toRawUuid(b);
  } catch {
    return a === b;
  }
}
