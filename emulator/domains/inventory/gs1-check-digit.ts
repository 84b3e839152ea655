// The GS1 mod-10 check digit of GTINs (GS1 General Specifications 7.9.1):
// from the right, digits weigh 3, 1, 3, … and the check digit brings the sum
// to a multiple of 10.

/** The check digit that completes `body` (the GTIN without its last digit). */
export function gs1CheckDigit(body: string): number {
  if (!/^\d+$/.test(body)) throw new RangeError(`a GS1 key body has digits only: ${body}`);
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += i % 2 === 0 ? digit * 3 : digit;
  }
  return (10 - (sum % 10)) % 10;
}

/** `body` followed by its check digit. */
export function withCheckDigit(body: string): string {
  return `${body}${gs1CheckDigit(body)}`;
}

/** A GTIN-8, -12, -13 or -14 whose last digit is its check digit. */
export function isValidGtin(gtin: string): boolean {
  return /^(\d{8}|\d{12,14})$/.test(gtin) && gs1CheckDigit(gtin.slice(0, -1)) === Number(gtin.slice(-1));
}

/** Any GTIN as the 14 digits AI 01 carries (left-padded with zeros); null when it is not a valid GTIN. */
export function toGtin14(text: string): string | null {
  return isValidGtin(text) ? text.padStart(14, "0") : null;
}
