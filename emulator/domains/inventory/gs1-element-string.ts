import { aiAt, aiDefinition, DATE_AIS, GTIN_AIS } from "./gs1-application-identifiers.ts";
import { isValidGtin } from "./gs1-check-digit.ts";
import { gs1DateToIso } from "./gs1-date.ts";

// GS1 element strings, as a scanner transmits a GS1 DataMatrix or GS1-128:
// application identifiers (AIs) each followed by their value, with the group
// separator (GS, ASCII 29, the transmitted FNC1) after every variable-length
// value that is not last. Parsing and writing them.

/** ASCII 29: the separator a scanner sends for FNC1 after a variable-length field. */
export const GS = "\u001d";

/** GS1's character set 82, the characters an alphanumeric AI value may hold. */
const CSET_82 = /^[!"%-?A-Z_a-z]+$/;

/** An AIM symbology identifier (`]d2` DataMatrix, `]C1` GS1-128, `]Q3` QR…) that some scanners prepend. */
const SYMBOLOGY_IDENTIFIER = /^\][A-Za-z][0-9A-Za-z]/;

export class Gs1ParseError extends Error {}

function checkValue(ai: string, value: string, referenceYear: number): void {
  if (GTIN_AIS.has(ai) && !isValidGtin(value)) throw new Gs1ParseError(`AI ${ai}: ${value} is not a GTIN-14 with a valid check digit`);
  if (DATE_AIS.has(ai) && gs1DateToIso(value, referenceYear) === null) throw new Gs1ParseError(`AI ${ai}: ${value} is not a date YYMMDD`);
}

/**
 * The AIs of an element string and their values, e.g.
 * `{"01": "00304094276010", "17": "270600", "10": "AB123"}` (an object's
 * key order is not the barcode's: JavaScript lists "10" before "01"). Throws
 * `Gs1ParseError` naming the first problem. `referenceYear` is the year date
 * AIs are checked against (their century depends on it).
 */
export function parseGs1ElementString(raw: string, referenceYear: number): Record<string, string> {
  let text = raw.replace(SYMBOLOGY_IDENTIFIER, "");
  // FNC1 in first position, when a scanner transmits it, arrives as a leading GS.
  if (text.startsWith(GS)) text = text.slice(1);
  if (text === "") throw new Gs1ParseError("the element string is empty");
  const fields: Record<string, string> = {};
  let position = 0;
  while (position < text.length) {
    const definition = aiAt(text, position);
    if (!definition) throw new Gs1ParseError(`no GS1 application identifier at position ${position}`);
    const { ai, fixedLength, maxLength } = definition;
    const start = position + ai.length;
    let value: string;
    if (fixedLength !== null) {
      value = text.slice(start, start + fixedLength);
      if (!/^\d+$/.test(value) || value.length !== fixedLength) throw new Gs1ParseError(`AI ${ai}: needs ${fixedLength} digits`);
      position = start + fixedLength;
    } else {
      const separator = text.indexOf(GS, start);
      const end = separator === -1 ? text.length : separator;
      value = text.slice(start, end);
      if (value === "") throw new Gs1ParseError(`AI ${ai}: the value is empty`);
      if (value.length > maxLength) throw new Gs1ParseError(`AI ${ai}: the value is longer than ${maxLength} characters`);
      if (!CSET_82.test(value)) throw new Gs1ParseError(`AI ${ai}: the value has a character outside GS1 character set 82`);
      position = end;
    }
    // A separator after a fixed-length value is allowed, and one at the end is harmless.
    if (text[position] === GS) position += 1;
    if (ai in fields) throw new Gs1ParseError(`AI ${ai}: appears twice`);
    checkValue(ai, value, referenceYear);
    fields[ai] = value;
  }
  return fields;
}

/**
 * Writes AIs and values as an element string: a GS after each
 * variable-length value that another field follows, none elsewhere.
 */
export function writeGs1ElementString(fields: readonly (readonly [string, string])[]): string {
  return fields
    .map(([ai, value], index) => {
      const definition = aiDefinition(ai);
      if (!definition) throw new RangeError(`not a GS1 application identifier: ${ai}`);
      if (definition.fixedLength !== null && value.length !== definition.fixedLength) throw new RangeError(`AI ${ai} takes ${definition.fixedLength} digits: ${value}`);
      const last = index === fields.length - 1;
      return `${ai}${value}${definition.fixedLength === null && !last ? GS : ""}`;
    })
    .join("");
}
