import * as z from "zod/mini";
import { describe, expect, it } from "vitest";
import { parseDescribed } from "./validation.ts";

// The wording of a 400 made from zod/mini's issues (which carry no message
// of their own): it names the field and says what it takes.

describe("parseDescribed", () => {
  it("names the type a field must be, with its article", () => {
    const schema = z.object({ body: z.object({}), list: z.array(z.string()), count: z.number() });
    const result = parseDescribed(schema, { body: "x", list: "x", count: "x" });
    expect(result).toEqual({ success: false, message: "body: must be an object; list: must be an array; count: must be a number" });
  });

  it("never calls a pattern without a message of its own a regex", () => {
    const result = parseDescribed(z.object({ code: z.string().check(z.regex(/^[A-Z]{3}$/)) }), { code: "abc" });
    expect(result).toEqual({ success: false, message: "code: is not in the form this field takes" });
  });

  it("keeps a message the schema sets", () => {
    const result = parseDescribed(z.object({ at: z.string().check(z.regex(/^\d\d:\d\d$/, "must be a time of day HH:MM")) }), { at: "9" });
    expect(result).toEqual({ success: false, message: "at: must be a time of day HH:MM" });
  });

  it("names the first ten fields that failed and counts the rest, so a long bad list makes a short message", () => {
    const result = parseDescribed(z.object({ ids: z.array(z.uuid()) }), { ids: Array.from({ length: 5_000 }, () => "a") });
    expect(result.success).toBe(false);
    const message = result.success ? "" : result.message;
    expect(message.split("; ")).toHaveLength(11);
    expect(message).toMatch(/^ids\.0: must be a valid uuid; ids\.1: .*; ids\.9: must be a valid uuid; and 4,990 more$/);
  });
});
