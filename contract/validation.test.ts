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
});
