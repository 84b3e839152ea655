// National Drug Codes: 10 digits printed in three dash-separated segments
// (labeler-product-package: 4-4-2, 5-3-2 or 5-4-1), and the 11-digit 5-4-2
// form billing uses, made by left-padding the short segment with a zero.
// A drug's GTIN embeds the 10 digits: UPC-A "3" + NDC + check digit.

import { withCheckDigit } from "./gs1-check-digit.ts";

const SEGMENTS = /^(\d{4,5})-(\d{3,4})-(\d{1,2})$/;

/** The three segments of a printed NDC; null when it is not one of the three 10-digit layouts. */
function segmentsOf(ndc: string): [string, string, string] | null {
  const match = SEGMENTS.exec(ndc);
  if (!match?.[1] || !match[2] || !match[3]) return null;
  return match[1].length + match[2].length + match[3].length === 10 ? [match[1], match[2], match[3]] : null;
}

/** The 10 digits of a printed NDC (`0409-4276-01` → `0409427601`). */
export function ndcDigits(ndc: string): string {
  const segments = segmentsOf(ndc);
  if (!segments) throw new RangeError(`not a 10-digit NDC in 4-4-2, 5-3-2 or 5-4-1 form: ${ndc}`);
  return segments.join("");
}

/** The 11-digit 5-4-2 form, digits only (`0409-4276-01` → `00409427601`). */
export function ndc11(ndc: string): string {
  const [labeler, product, pkg] = segmentsOf(ndc) ?? [];
  if (labeler === undefined || product === undefined || pkg === undefined) throw new RangeError(`not a 10-digit NDC: ${ndc}`);
  return `${labeler.padStart(5, "0")}${product.padStart(4, "0")}${pkg.padStart(2, "0")}`;
}

/**
 * What a search text can mean as an NDC, digits only: the text without
 * dashes or spaces (10 or 11 digits), plus, when it is written in segments,
 * its 11-digit form. Empty when it cannot be an NDC.
 */
export function ndcSearchKeys(text: string): string[] {
  const trimmed = text.trim().replace(/\s+/g, "");
  const keys = new Set<string>();
  const digits = trimmed.replaceAll("-", "");
  if (/^\d{10,11}$/.test(digits)) keys.add(digits);
  if (segmentsOf(trimmed)) keys.add(ndc11(trimmed));
  return [...keys];
}

/** The GTIN-14 under which a drug with this NDC ships, at packaging level `indicator` (0 for the item itself). */
export function gtinOfNdc(ndc: string, indicator = 0): string {
  if (!Number.isInteger(indicator) || indicator < 0 || indicator > 8) throw new RangeError(`a GTIN-14 indicator is 0-8: ${indicator}`);
  return withCheckDigit(`${indicator}03${ndcDigits(ndc)}`);
}
