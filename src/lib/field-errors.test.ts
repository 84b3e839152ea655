import { describe, expect, it } from "vitest";
import { withoutErrorsOf } from "./field-errors.ts";

describe("withoutErrorsOf", () => {
  it("drops the changed fields' errors and keeps the others", () => {
    const errors = { endDate: "Too long.", slotLength: "Whole minutes." };
    expect(withoutErrorsOf(errors, new Set(["endDate", "startDate"]))).toEqual({ slotLength: "Whole minutes." });
    expect(withoutErrorsOf(errors, new Set<string>())).toEqual(errors);
    expect(errors).toEqual({ endDate: "Too long.", slotLength: "Whole minutes." });
  });
});
