import { describe, expect, it } from "vitest";
import { GS, Gs1ParseError, parseGs1ElementString, writeGs1ElementString } from "./gs1-element-string.ts";

// The GS1 element-string parser behind `parsedFields` (seed 000 "Inventory
// change item"): fixed-length AIs need no separator, variable-length ones end
// at GS (the transmitted FNC1) or at the end.

const GTIN = "00304094276014";
const parse = (raw: string) => parseGs1ElementString(raw, 2026);

describe("parseGs1ElementString", () => {
  it("reads fixed-length AIs back to back, with no separator", () => {
    expect(parse(`01${GTIN}17270630`)).toEqual({ "01": GTIN, "17": "270630" });
  });

  it("reads a variable-length AI to the end of the string", () => {
    expect(parse(`01${GTIN}17270600` + "10AB1234")).toEqual({ "01": GTIN, "17": "270600", "10": "AB1234" });
  });

  it("ends a variable-length AI at GS when another field follows", () => {
    expect(parse(`01${GTIN}10AB1234${GS}17270630`)).toEqual({ "01": GTIN, "10": "AB1234", "17": "270630" });
    expect(parse(`01${GTIN}17270630` + `10AB1234${GS}21SN00042`)).toEqual({ "01": GTIN, "17": "270630", "10": "AB1234", "21": "SN00042" });
    expect(parse(`01${GTIN}21100000000042${GS}17270630` + "10X-1")).toEqual({ "01": GTIN, "21": "100000000042", "17": "270630", "10": "X-1" });
  });

  it("without the separator, a variable-length value swallows what follows (why GS is needed)", () => {
    expect(parse(`01${GTIN}10AB123417270630`)).toEqual({ "01": GTIN, "10": "AB123417270630" });
  });

  it("accepts a GS after a fixed-length value and at the end", () => {
    expect(parse(`01${GTIN}${GS}17270630${GS}10AB${GS}`)).toEqual({ "01": GTIN, "17": "270630", "10": "AB" });
  });

  it("drops an AIM symbology identifier and a leading FNC1 as scanners send them", () => {
    expect(parse(`]d201${GTIN}17270630`)).toEqual({ "01": GTIN, "17": "270630" });
    expect(parse(`]C1${GS}01${GTIN}10L1`)).toEqual({ "01": GTIN, "10": "L1" });
  });

  it("knows three- and four-digit AIs", () => {
    expect(parse(`01${GTIN}3103000250` + `240REF-7${GS}10L1`)).toEqual({ "01": GTIN, "3103": "000250", "240": "REF-7", "10": "L1" });
    expect(parse(`01${GTIN}11260115`)).toEqual({ "01": GTIN, "11": "260115" });
  });

  it.each([
    ["", /empty/],
    [`01${GTIN.slice(0, -1)}9`, /AI 01: .* valid check digit/],
    [`01${GTIN.slice(0, 10)}`, /AI 01: needs 14 digits/],
    [`01${GTIN}17271301`, /AI 17: 271301 is not a date/],
    [`01${GTIN}17270231`, /AI 17: 270231 is not a date/],
    [`05${GTIN}`, /no GS1 application identifier at position 0/],
    [`01${GTIN}10${GS}17270630`, /AI 10: the value is empty/],
    [`01${GTIN}10${"A".repeat(21)}`, /AI 10: the value is longer than 20/],
    [`01${GTIN}10AB#1`, /character set 82/],
    [`01${GTIN}10A${GS}10B`, /AI 10: appears twice/],
    [`01${GTIN}X`, /position 16/],
  ])("refuses %j", (raw, message) => {
    expect(() => parse(raw)).toThrow(Gs1ParseError);
    expect(() => parse(raw)).toThrow(message);
  });
});

describe("writeGs1ElementString", () => {
  it("puts GS only after variable-length values that another field follows", () => {
    expect(writeGs1ElementString([["01", GTIN], ["10", "AB1"], ["17", "270600"]])).toBe(`01${GTIN}10AB1${GS}17270600`);
    expect(writeGs1ElementString([["01", GTIN], ["17", "270600"], ["10", "AB1"]])).toBe(`01${GTIN}17270600` + "10AB1");
    expect(writeGs1ElementString([["01", GTIN], ["10", "AB1"], ["21", "S9"]])).toBe(`01${GTIN}10AB1${GS}21S9`);
  });

  it("round-trips through the parser", () => {
    const fields = [["01", GTIN], ["21", "0042"], ["17", "281100"], ["10", "LOT-9"]] as const;
    expect(parse(writeGs1ElementString(fields))).toEqual(Object.fromEntries(fields));
  });

  it("refuses an unknown AI or a fixed-length value of the wrong length", () => {
    expect(() => writeGs1ElementString([["05", "1"]])).toThrow(RangeError);
    expect(() => writeGs1ElementString([["17", "2706"]])).toThrow(RangeError);
  });
});
