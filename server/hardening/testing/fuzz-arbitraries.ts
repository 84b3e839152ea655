import fc from "fast-check";
import { HARNESS_NOW } from "../../testing/bff-harness.ts";

// Shared fast-check arbitraries of the hardening fuzz: odd and huge
// text, near-valid dates, date-times and ids (the inputs that get past a regex
// and reach deeper code), query strings with percent-encoding debris, header
// values, authorization headers and request bodies. Pure: no server, no
// emulator, no store.

/** Text that has broken parsers before: prototype names, percent-encoding debris, controls, NUL, lone surrogates, bidi, BOM, emoji, injections. */
export const EDGE_STRINGS: readonly string[] = [
  "",
  " ",
  "\t",
  "null",
  "undefined",
  "true",
  "0",
  "-1",
  "NaN",
  "Infinity",
  "1e309",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "%",
  "%%",
  "%zz",
  "%2",
  "%E0%A4%A",
  "%C0%AF",
  "%00",
  "%2F",
  "%2e%2e",
  "%252F",
  "+",
  "&",
  "=",
  "==",
  "?",
  "#",
  ";",
  ",",
  ",,,",
  "..",
  "../..",
  "./",
  "\\",
  "\u0000",
  "a\u0000b",
  "\u0007",
  "\r\n",
  "\uFEFF",
  "\u202E",
  "\uFFFD",
  "\uD800",
  "\uDFFF",
  "a\uD83D",
  "😀",
  "👩‍⚕️",
  "Ω≈ç√",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "${jndi:ldap://x}",
  "{{7*7}}",
];

/** Roughly 100 KB of one repeated unit (ASCII, accented, emoji, NUL, percent debris). */
export const hugeString: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom("x", "é", "😀", "%", "\u0000", "a b", "%zz", "\uD800"), fc.integer({ min: 90_000, max: 110_000 }))
  .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)));

/** Any text: ASCII, graphemes, any code point, the edge strings, and now and then a huge one. */
export const fuzzText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ maxLength: 40 }), weight: 3 },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }), weight: 3 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 20 }), weight: 2 },
  { arbitrary: fc.constantFrom(...EDGE_STRINGS), weight: 3 },
  { arbitrary: hugeString, weight: 1 },
);

const pad = (value: number, width: number) => String(value).padStart(width, "0");

/** `YYYY-MM-DD`-shaped: near today (valid), or digits that pass a pattern but name no day (2026-02-31, 2026-13-01, 0000-00-00). */
export const dateLike: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: -400, max: 400 }).map((days) => new Date(HARNESS_NOW + days * 86_400_000).toISOString().slice(0, 10)),
  fc
    .tuple(fc.oneof(fc.integer({ min: 2024, max: 2028 }), fc.integer({ min: 0, max: 9999 })), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
    .map(([year, month, day]) => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`),
  fc.constantFrom("2026-02-29", "2026-02-31", "2028-02-29", "2026-04-31", "2026-00-10", "2026-13-01", "0000-01-01", "9999-12-31", "2026-3-8", "20260308", "2026-03-08T00:00"),
);

/** ISO 8601 date-time-shaped, with offsets valid and not, and digits out of range. */
export const dateTimeLike: fc.Arbitrary<string> = fc
  .tuple(
    dateLike,
    fc.integer({ min: 0, max: 25 }),
    fc.integer({ min: 0, max: 61 }),
    fc.option(fc.integer({ min: 0, max: 61 }), { nil: undefined }),
    fc.option(fc.integer({ min: 0, max: 999 }), { nil: undefined }),
    fc.constantFrom("Z", "+00:00", "-04:00", "-05:00", "+05:30", "+14:00", "-23:59", "+99:99", "-00:00"),
  )
  .map(([date, hours, minutes, seconds, millis, offset]) => {
    const secondsPart = seconds === undefined ? "" : `:${pad(seconds, 2)}${millis === undefined ? "" : `.${pad(millis, 3)}`}`;
    return `${date}T${pad(hours, 2)}:${pad(minutes, 2)}${secondsPart}${offset}`;
  });

const hex32 = fc.stringMatching(/^[0-9a-f]{32}$/);

/** Ids of every form: UUIDs, prefixed ids of each kind (right or wrong for the field), upper case, wrong lengths, and any text. */
export const idLike: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.uuid(), weight: 2 },
  { arbitrary: fc.uuid().map((id) => id.toUpperCase()), weight: 1 },
  { arbitrary: fc.tuple(fc.constantFrom("pat", "fac", "prv", "atp", "avt", "img", "usr", "nte", "hld", "xyz", ""), hex32).map(([prefix, hex]) => `${prefix}_${hex}`), weight: 3 },
  { arbitrary: fc.tuple(fc.constantFrom("prv", "img"), hex32, fc.constantFrom("0", "", "x", "\u0000")).map(([prefix, hex, tail]) => `${prefix}_${hex.slice(1)}${tail}`), weight: 1 },
  { arbitrary: fuzzText, weight: 2 },
);

/** Replaces lone surrogates, which `encodeURIComponent` refuses. */
export function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

/** A value for a query parameter: text, dates, ids, numbers, booleans, comma lists. */
export function queryValue(extra: readonly string[] = []): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fuzzText, weight: 3 },
    { arbitrary: dateLike, weight: 2 },
    { arbitrary: idLike, weight: 2 },
    { arbitrary: fc.oneof(fc.integer(), fc.double()).map(String), weight: 1 },
    { arbitrary: fc.constantFrom("true", "false", "1", "0", "yes", "TRUE", "strong", "cached"), weight: 1 },
    { arbitrary: fc.array(idLike, { maxLength: 5 }).map((ids) => ids.join(",")), weight: 1 },
    ...(extra.length > 0 ? [{ arbitrary: fc.constantFrom(...extra), weight: 2 }] : []),
  );
}

type QueryEncoding = "component" | "raw" | "form";

function encodeQueryPart(text: string, encoding: QueryEncoding): string {
  if (encoding === "raw") return text;
  const encoded = encodeURIComponent(wellFormed(text));
  return encoding === "form" ? encoded.replace(/%20/g, "+") : encoded;
}

/**
 * A query string (with its `?`, or empty): known and random names, repeated
 * names, names without `=`, empty pairs, values percent-encoded, form-encoded
 * or raw (so `%zz`, `&`, `#` and raw unicode reach the URL parser).
 */
export function queryString(knownKeys: readonly string[], values: fc.Arbitrary<string> = queryValue()): fc.Arbitrary<string> {
  const key = knownKeys.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...knownKeys), weight: 3 }, { arbitrary: fuzzText, weight: 1 }) : fuzzText;
  const pair = fc.record({
    key,
    value: fc.option(values, { nil: undefined, freq: 8 }),
    encoding: fc.constantFrom<QueryEncoding>("component", "component", "raw", "form"),
  });
  return fc.tuple(fc.array(pair, { maxLength: 8 }), fc.constantFrom("&", "&", "&&", ";")).map(([pairs, separator]) => {
    if (pairs.length === 0) return "";
    const parts = pairs.map(({ key: name, value, encoding }) => (value === undefined ? encodeQueryPart(name, encoding) : `${encodeQueryPart(name, encoding)}=${encodeQueryPart(value, encoding)}`));
    return `?${parts.join(separator)}`;
  });
}

/**
 * Path segments as a hostile client writes them: NUL (PostgreSQL refuses it
 * in text), traversal and encoded slashes and dots (`%2F`, `%5C`, overlong
 * UTF-8 `%C0%AF`), invalid percent-encoding, bidi, BOM, emoji, full-width
 * digits, CR/LF, overlong ids and ids a character off.
 */
export const HOSTILE_SEGMENTS: readonly string[] = [
  "%00",
  "a%00b",
  "00000000-0000-4000-8000-000000000000%00",
  "%2500",
  "..",
  ".",
  "%2e%2e",
  "%2E%2E%2F",
  "%2F",
  "a%2Fb",
  "%2F%2F",
  "..%2F..%2Fsession",
  "..%5C..%5Csession",
  "%5C",
  "%C0%AE%C0%AE",
  "%C0%AF",
  "%FF",
  "%zz",
  "%",
  "%E2%80%AE",
  "%EF%BB%BF",
  "%F0%9F%98%80",
  "%EF%BC%90%EF%BC%91",
  "%0D%0A",
  "%09",
  "%20",
  "~",
  "*",
  ":id",
  "recent",
  "00000000-0000-4000-8000-00000000000",
  "00000000-0000-4000-8000-0000000000000",
  "00000000000040008000000000000000",
  `img_${"0".repeat(31)}g`,
  "0".repeat(4_096),
  "x".repeat(20_000),
];

/** A path segment built from an id: percent-encoded, raw (a `/`, `?` or `#` in it changes the route), or a hostile one. */
export function pathSegment(ids: fc.Arbitrary<string> = idLike): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: ids.map((id) => encodeURIComponent(wellFormed(id))), weight: 4 },
    { arbitrary: ids, weight: 2 },
    { arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS), weight: 3 },
  );
}

/** Header values a `Headers` object accepts (Latin-1 without CR, LF or NUL), including controls and high bytes. */
export const headerText: fc.Arbitrary<string> = fc
  .oneof(
    fc.string({ maxLength: 60 }),
    fc.string({ unit: "binary-ascii", maxLength: 60 }),
    fc.constantFrom(...EDGE_STRINGS),
    fc.integer({ min: 1_000, max: 16_000 }).map((length) => "A".repeat(length)),
  )
  .filter((value) => {
    try {
      new Headers([["x-probe", value]]);
      return true;
    } catch {
      return false;
    }
  });

const base64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");

/** A JWT-shaped string that no platform key signed: `alg: none`, HS256, unknown kids, expired and future claims, random payloads, wrong segment counts. */
export function forgedJwt(organizationIds: readonly string[]): fc.Arbitrary<string> {
  const now = () => Math.floor(Date.now() / 1000);
  const header = fc.oneof(
    fc.constantFrom<Record<string, unknown>>(
      { alg: "none", typ: "host-session+jwt" },
      { alg: "HS256", typ: "JWT" },
      { alg: "RS256", typ: "host-session+jwt", kid: "platform-1" },
      { alg: "ES256", typ: "JWT" },
      { alg: "ES256" },
      { alg: "ES512", typ: "host-session+jwt" },
    ),
    fc.record({ alg: fc.constant("ES256"), typ: fc.constant("host-session+jwt"), kid: fuzzText }),
    fc.jsonValue(),
  );
  const claims = fc.oneof(
    fc.record({
      iss: fc.oneof(fc.constant("http://127.0.0.1:4010"), fuzzText),
      aud: fc.constantFrom("tandem", "other", ""),
      sub: idLike,
      org_id: fc.oneof(fc.constantFrom(...organizationIds), idLike),
      provider_id: idLike,
      roles: fc.array(fc.constantFrom("Physician", "Front Desk", "admin", "*"), { maxLength: 3 }),
      note_id: idLike,
      jti: fuzzText,
      // Expired-looking by default; sometimes far future or nonsense.
      iat: fc.oneof(fc.integer({ min: -86_400, max: -600 }).map((delta) => now() + delta), fc.integer({ min: 0, max: 2 ** 40 })),
      exp: fc.oneof(fc.integer({ min: -86_400, max: -1 }).map((delta) => now() + delta), fc.constant(2 ** 53), fc.double()),
      nbf: fc.integer({ min: -86_400, max: 86_400 }).map((delta) => now() + delta),
    }),
    fc.jsonValue(),
  );
  const signature = fc.oneof(fc.constant(""), fc.uint8Array({ minLength: 1, maxLength: 96 }).map((bytes) => Buffer.from(bytes).toString("base64url")), fc.string({ maxLength: 40 }));
  return fc.tuple(header, claims, signature, fc.constantFrom(3, 3, 3, 2, 4, 1)).map(([h, c, s, segments]) => {
    const parts = [base64url(JSON.stringify(h) ?? "null"), base64url(JSON.stringify(c) ?? "null"), s, "extra"];
    return parts.slice(0, segments).join(".");
  });
}

/** How a real token is spoiled: a flipped signature character, a re-encoded payload (another org, later exp), `alg: none`, truncation, noise. */
export type TokenTamper =
  | { kind: "flip-signature"; at: number }
  | { kind: "swap-claims"; organizationId: string; expDelta: number }
  | { kind: "alg-none" }
  | { kind: "truncate"; at: number }
  | { kind: "append"; text: string }
  | { kind: "drop-signature" };

export function tokenTamper(organizationIds: readonly string[]): fc.Arbitrary<TokenTamper> {
  return fc.oneof(
    fc.record({ kind: fc.constant("flip-signature" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("swap-claims" as const), organizationId: fc.constantFrom(...organizationIds), expDelta: fc.integer({ min: -3_600, max: 86_400 }) }),
    fc.constant({ kind: "alg-none" as const }),
    fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("append" as const), text: fc.constantFrom(".", "x", "=", " x", "..", ".e30") }),
    fc.constant({ kind: "drop-signature" as const }),
  );
}

export function applyTamper(token: string, tamper: TokenTamper): string {
  const [header = "", payload = "", signature = ""] = token.split(".");
  switch (tamper.kind) {
    case "flip-signature": {
      // Not the last character: its low bits are padding, so some flips there decode to the same signature.
      const at = tamper.at % Math.max(1, signature.length - 1);
      const flipped = signature[at] === "A" ? "B" : "A";
      return `${header}.${payload}.${signature.slice(0, at)}${flipped}${signature.slice(at + 1)}`;
    }
    case "swap-claims": {
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
      const exp = typeof claims.exp === "number" ? claims.exp : 0;
      const changed = { ...claims, org_id: tamper.organizationId, exp: exp + tamper.expDelta };
      return `${header}.${base64url(JSON.stringify(changed))}.${signature}`;
    }
    case "alg-none":
      return `${base64url(JSON.stringify({ alg: "none", typ: "host-session+jwt" }))}.${payload}.`;
    case "truncate":
      return token.slice(0, tamper.at % token.length);
    case "append":
      return `${token}${tamper.text}`;
    case "drop-signature":
      return `${header}.${payload}.`;
  }
}

/** An `Authorization` value around a token: other schemes, wrong case, missing or doubled parts. */
export function authorizationAround(token: fc.Arbitrary<string>): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { arbitrary: token.map((value) => `Bearer ${value}`), weight: 4 },
    { arbitrary: fc.tuple(fc.constantFrom("bearer ", "BEARER ", "Bearer", "Bearer  ", "Basic ", "Digest ", "Token ", "Bearer\t", ""), token).map(([scheme, value]) => `${scheme}${value}`), weight: 2 },
    { arbitrary: token.map((value) => `Bearer ${value}, Bearer ${value}`), weight: 1 },
    { arbitrary: fc.constantFrom(undefined, "", "Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "Bearer null", "Bearer undefined", "Bearer ...", "Bearer e30.e30.e30"), weight: 2 },
  );
}

/** Any JSON a client could send, with big numbers, NUL and lone surrogates in strings (`JSON.stringify` escapes them). */
export const junkJson: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 4 },
  { arbitrary: fuzzText, weight: 2 },
  { arbitrary: fc.constantFrom<unknown>(null, true, false, 0, -0, -1, 1.5, 2 ** 31, 2 ** 53, -(2 ** 63), 1e308, [], {}, [null], { "": "" }), weight: 2 },
  { arbitrary: fc.array(idLike, { maxLength: 4 }), weight: 1 },
);

/** Text that is not JSON, or JSON that pushes a parser (BOM, trailing commas, Infinity, deep nesting). */
export const invalidJsonText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "{",
    '{"a":',
    "[1,2",
    "{'a':1}",
    "NaN",
    "undefined",
    "\uFEFF{}",
    '{"a":1,}',
    "01",
    "1e99999",
    "-",
    '"\\ud800"',
    '"\\u0000"',
    '{"__proto__":{"polluted":true}}',
    `${"[".repeat(20_000)}${"]".repeat(20_000)}`,
    `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`,
  ),
  fc.string({ maxLength: 80 }).filter((text) => {
    try {
      JSON.parse(text);
      return false;
    } catch {
      return true;
    }
  }),
);

const OMIT = Symbol("omit");

/**
 * An object shaped like a valid body: each known key keeps a near-valid value,
 * gets junk, or is left out; unknown keys (prototype names too) are added now and then.
 */
export function shapedObject(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const known = Object.entries(fields).map(([name, valid]) =>
    fc.oneof({ arbitrary: valid, weight: 10 }, { arbitrary: junkJson, weight: 1 }, { arbitrary: fc.constant(OMIT), weight: 1 }).map((value) => [name, value] as const),
  );
  const extras = fc.oneof(
    { arbitrary: fc.constant<[string, unknown][]>([]), weight: 4 },
    { arbitrary: fc.array(fc.tuple(fc.oneof(fuzzText, fc.constantFrom("__proto__", "constructor", "providerId", "status", "id")), junkJson), { minLength: 1, maxLength: 3 }), weight: 1 },
  );
  return fc.tuple(fc.tuple(...known), extras).map(([entries, extra]) => {
    const body: Record<string, unknown> = {};
    for (const [name, value] of [...entries, ...extra]) {
      // defineProperty: a `__proto__` key becomes an own property, as JSON.parse would make it.
      if (value !== OMIT) Object.defineProperty(body, name, { value, enumerable: true, writable: true, configurable: true });
    }
    return body;
  });
}

export interface RawBody {
  contentType: string | undefined;
  text: string | undefined;
}

const JSON_CONTENT_TYPES = ["application/json", "application/json; charset=utf-8", "APPLICATION/JSON", "application/json;charset=UTF-8"] as const;
const OTHER_CONTENT_TYPES = ["application/jsonx", "application/json-patch+json", "application/json; charset=utf-16", "text/plain", "text/json", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded", "", ";;;"] as const;

/** A request body: mostly `value` as JSON under a JSON content type; sometimes junk JSON, invalid JSON, empty, or another content type. */
export function rawBody(value: fc.Arbitrary<unknown>): fc.Arbitrary<RawBody> {
  const json = fc.constantFrom<string | undefined>(...JSON_CONTENT_TYPES);
  const anyType = fc.oneof(json, fc.constantFrom<string | undefined>(undefined, ...OTHER_CONTENT_TYPES), headerText);
  return fc.oneof(
    { arbitrary: fc.record({ contentType: json, text: value.map((body) => JSON.stringify(body)) }), weight: 8 },
    { arbitrary: fc.record({ contentType: json, text: junkJson.map((body) => JSON.stringify(body)) }), weight: 2 },
    { arbitrary: fc.record({ contentType: json, text: invalidJsonText }), weight: 2 },
    { arbitrary: fc.record({ contentType: anyType, text: fc.constantFrom<string | undefined>(undefined, "") }), weight: 1 },
    { arbitrary: fc.record({ contentType: anyType, text: value.map((body) => JSON.stringify(body)) }), weight: 1 },
  );
}
