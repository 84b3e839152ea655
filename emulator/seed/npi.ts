// National Provider Identifiers: 9 digits and a Luhn check digit computed as
// if the number were prefixed with the card issuer prefix 80840 (CMS, "NPI
// check digit"). Individuals start with 1, organizations with 2.

function luhnSum(digits: string, doubleFirstFromRight: boolean): number {
  let sum = 0;
  let double = doubleFirstFromRight;
  for (let i = digits.length - 1; i >= 0; i--) {
    let digit = digits.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum;
}

/** The check digit that completes a 9-digit NPI body. */
export function npiCheckDigit(body: string): number {
  if (!/^\d{9}$/.test(body)) throw new RangeError(`an NPI body has 9 digits: ${body}`);
  return (10 - (luhnSum(`80840${body}`, true) % 10)) % 10;
}

export function isValidNpi(npi: string): boolean {
  return /^\d{10}$/.test(npi) && luhnSum(`80840${npi}`, false) % 10 === 0;
}

/** A valid NPI from a 9-digit body. */
export function npiFromBody(body: string): string {
  return `${body}${npiCheckDigit(body)}`;
}
