import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { anyId, facilityId, noteId, noteImageId, rawUuid } from "./clinic-api/primitives.ts";
import { cachedIdKey, idKey, idPattern, isPrefixedId, isRawUuid, isSameId, parseV3PathId, prefixedIdPattern, toPrefixedId, toRawUuid, UUID_PATTERN } from "./ids.ts";

// Seed 000 "Conventions": older paths use UUIDs; v3 resources a prefix and 32
// hex characters; v3 path parameters accept either form.

const RAW = "0123abcd-4567-4890-8abc-def012345678";
const HEX = "0123abcd456748908abcdef012345678";

describe("the id forms", () => {
  it("tells a raw UUID from a prefixed id, in either case", () => {
    expect(isRawUuid(RAW)).toBe(true);
    expect(isRawUuid(RAW.toUpperCase())).toBe(true);
    expect(isRawUuid(`prv_${HEX}`)).toBe(false);
    expect(isPrefixedId(`prv_${HEX}`)).toBe(true);
    expect(isPrefixedId(`PRV_${HEX.toUpperCase()}`, "prv")).toBe(true);
    expect(isPrefixedId(`prv_${HEX}`, "fac")).toBe(false);
    expect(isPrefixedId(`xyz_${HEX}`)).toBe(false);
    expect(isPrefixedId(RAW)).toBe(false);
  });

  it("converts between the forms, lower-cased, and refuses anything else", () => {
    expect(toPrefixedId("fac", RAW.toUpperCase())).toBe(`fac_${HEX}`);
    expect(toPrefixedId("fac", `FAC_${HEX}`)).toBe(`fac_${HEX}`);
    expect(toRawUuid(`prv_${HEX}`)).toBe(RAW);
    expect(toRawUuid(RAW.toUpperCase())).toBe(RAW);
    expect(() => toRawUuid("026211")).toThrow();
    expect(() => toPrefixedId("prv", `fac_${HEX}`)).toThrow();
  });

  it("reads a v3 path parameter of the expected kind or a raw UUID", () => {
    expect(parseV3PathId(`img_${HEX}`, "img")).toBe(RAW);
    expect(parseV3PathId(RAW.toUpperCase(), "img")).toBe(RAW);
    expect(parseV3PathId(`pat_${HEX}`, "img")).toBeNull();
    expect(parseV3PathId("not-an-id", "img")).toBeNull();
  });
});

describe("the patterns", () => {
  const whole = (source: string, flags?: string) => new RegExp(`^${source}$`, flags);

  it("match the forms the parsers accept, with the case the schemas ask for", () => {
    expect(whole(UUID_PATTERN).test(RAW)).toBe(true);
    expect(whole(UUID_PATTERN).test(RAW.toUpperCase())).toBe(false);
    expect(whole(UUID_PATTERN, "i").test(RAW.toUpperCase())).toBe(true);
    expect(whole(prefixedIdPattern(["fac"])).test(`fac_${HEX}`)).toBe(true);
    expect(whole(prefixedIdPattern(["fac"])).test(`prv_${HEX}`)).toBe(false);
    expect(whole(idPattern(["fac", "prv"]), "i").test(`PRV_${HEX}`)).toBe(true);
    expect(whole(idPattern(["fac", "prv"]), "i").test(`atp_${HEX}`)).toBe(false);
    expect(whole(idPattern(), "i").test(`atp_${HEX}`)).toBe(true);
    expect(whole(idPattern()).test(`${RAW},${RAW}`)).toBe(false);
  });

  it("are the ones the wire schemas use", () => {
    expect(z.safeParse(rawUuid, RAW.toUpperCase()).success).toBe(true);
    expect(z.safeParse(rawUuid, `fac_${HEX}`).success).toBe(false);
    expect(z.safeParse(facilityId, `fac_${HEX}`).success).toBe(true);
    expect(z.safeParse(facilityId, `FAC_${HEX}`).success).toBe(false);
    expect(z.safeParse(anyId, `IMG_${HEX}`).success).toBe(true);
    expect(z.safeParse(anyId, `xyz_${HEX}`).success).toBe(false);
  });

  it("give each path id its form: a note a raw UUID (v1), an image img_ or a raw UUID (v3), nothing else, NUL included", () => {
    for (const id of [RAW, RAW.toUpperCase()]) expect(z.safeParse(noteId, id).success).toBe(true);
    for (const id of [`img_${HEX}`, `IMG_${HEX.toUpperCase()}`, RAW]) expect(z.safeParse(noteImageId, id).success).toBe(true);
    for (const id of [`img_${HEX}`, `${RAW}\u0000`, "\u0000", "", ` ${RAW}`]) expect(z.safeParse(noteId, id).success).toBe(false);
    for (const id of [`prv_${HEX}`, `img_${HEX}\u0000`, `img_${HEX}0`, `img_${RAW}`, "..%2F"]) expect(z.safeParse(noteImageId, id).success).toBe(false);
  });
});

describe("idKey", () => {
  it("gives the lower-case raw UUID behind either form of any kind", () => {
    for (const id of [RAW, RAW.toUpperCase(), `prv_${HEX}`, `FAC_${HEX.toUpperCase()}`, `avt_${HEX}`]) expect(idKey(id)).toBe(RAW);
  });

  it("gives any other string as given", () => {
    expect(idKey("026211")).toBe("026211");
    expect(idKey("Unlisted")).toBe("Unlisted");
    expect(idKey("")).toBe("");
  });

  it("is remembered by cachedIdKey, with the same answers", () => {
    for (const id of [RAW, `prv_${HEX}`, "Unlisted", `prv_${HEX}`, RAW]) expect(cachedIdKey(id)).toBe(idKey(id));
  });
});

describe("isSameId", () => {
  it("says the same id in either form is the same, and other strings only themselves", () => {
    expect(isSameId(`prv_${HEX}`, RAW)).toBe(true);
    expect(isSameId(RAW.toUpperCase(), `fac_${HEX}`)).toBe(true);
    expect(isSameId(RAW, RAW.replace(/8$/, "9"))).toBe(false);
    expect(isSameId("026211", "026211")).toBe(true);
    expect(isSameId("abc", "ABC")).toBe(false);
    expect(isSameId("abc", RAW)).toBe(false);
  });

  it("with a kind, also asks both to be ids of that kind", () => {
    expect(isSameId(`prv_${HEX}`, RAW, "prv")).toBe(true);
    expect(isSameId(`prv_${HEX}`, `PRV_${HEX}`, "prv")).toBe(true);
    expect(isSameId(`prv_${HEX}`, `fac_${HEX}`, "prv")).toBe(false);
    expect(isSameId(`fac_${HEX}`, RAW, "prv")).toBe(false);
    expect(isSameId("026211", "026211", "prv")).toBe(false);
  });
});
