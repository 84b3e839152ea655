import { describe, expect, it } from "vitest";
import { gs1CheckDigit, isValidGtin, toGtin14, withCheckDigit } from "./gs1-check-digit.ts";
import { gtinOfNdc, ndc11, ndcDigits, ndcSearchKeys } from "./ndc.ts";

// GTIN check digits (GS1 mod 10) and NDC forms, the identifiers products carry and the search compares.

describe("GS1 check digits", () => {
  it.each([
    ["400638133393", 1], // EAN-13 4006381333931
    ["03600029145", 2], // UPC-A 036000291452
    ["9638507", 4], // GTIN-8 96385074
    ["0001234560001", 2], // GTIN-14 00012345600012
  ])("%s completes with %i", (body, digit) => {
    expect(gs1CheckDigit(body)).toBe(digit);
    expect(isValidGtin(withCheckDigit(body))).toBe(true);
  });

  it("refuses a wrong check digit, a wrong length and non-digits", () => {
    expect(isValidGtin("4006381333932")).toBe(false);
    expect(isValidGtin("40063813339")).toBe(false);
    expect(isValidGtin("400638133393A")).toBe(false);
    expect(() => gs1CheckDigit("12a")).toThrow(RangeError);
  });

  it("pads any GTIN to the 14 digits of AI 01", () => {
    expect(toGtin14("036000291452")).toBe("00036000291452");
    expect(toGtin14("4006381333931")).toBe("04006381333931");
    expect(toGtin14("96385074")).toBe("00000096385074");
    expect(toGtin14("036000291453")).toBeNull();
  });
});

describe("NDCs", () => {
  it("reads the three 10-digit layouts and their 11-digit form", () => {
    expect([ndcDigits("0409-4276-01"), ndc11("0409-4276-01")]).toEqual(["0409427601", "00409427601"]);
    expect([ndcDigits("49281-126-65"), ndc11("49281-126-65")]).toEqual(["4928112665", "49281012665"]);
    expect([ndcDigits("15054-0530-6"), ndc11("15054-0530-6")]).toEqual(["1505405306", "15054053006"]);
    expect(() => ndcDigits("12345-6789-01")).toThrow(RangeError);
  });

  it("embeds the NDC in the drug's GTIN: indicator, 03, NDC, check digit", () => {
    const gtin = gtinOfNdc("0409-4276-01");
    expect(gtin).toMatch(/^0030409427601\d$/);
    expect(isValidGtin(gtin)).toBe(true);
    const caseGtin = gtinOfNdc("0409-4276-01", 1);
    expect(caseGtin).toMatch(/^1030409427601\d$/);
    expect(isValidGtin(caseGtin)).toBe(true);
  });

  it("turns search text into the digit forms it can mean", () => {
    expect(ndcSearchKeys("0409-4276-01").sort()).toEqual(["00409427601", "0409427601"]);
    expect(ndcSearchKeys("00409-4276-01")).toEqual(["00409427601"]);
    expect(ndcSearchKeys("0409427601")).toEqual(["0409427601"]);
    expect(ndcSearchKeys("lidocaine")).toEqual([]);
  });
});
