import { describe, expect, it } from "vitest";
import { changeSummary, changedByText } from "./change-wording.ts";

describe("changedByText", () => {
  it("says a change from outside Tandem is the EHR's", () => {
    expect(changedByText({ attribution: "ehr", changedBy: [{ kind: "ehr" }] })).toBe("Changed in the EHR");
  });

  it("names the Tandem users who wrote the field, you first", () => {
    expect(changedByText({ attribution: "tandem", changedBy: [{ kind: "you" }] })).toBe("Changed in Tandem by you");
    expect(
      changedByText({
        attribution: "tandem",
        changedBy: [{ kind: "you" }, { kind: "tandem_user", name: "Dr. Maria Chen, MD" }, { kind: "other_tandem_users", count: 2 }],
      }),
    ).toBe("Changed in Tandem by you, Dr. Maria Chen, MD and 2 other Tandem users");
    expect(changedByText({ attribution: "tandem", changedBy: [{ kind: "other_tandem_users", count: 1 }] })).toBe("Changed in Tandem by another Tandem user");
  });

  it("says both, and that Tandem cannot tell, when it cannot", () => {
    expect(changedByText({ attribution: "unclear", changedBy: [{ kind: "tandem_user", name: "Dr. Maria Chen, MD" }, { kind: "ehr" }] })).toBe(
      "Changed in Tandem by Dr. Maria Chen, MD, or in the EHR: Tandem cannot tell which",
    );
  });
});

describe("changeSummary", () => {
  it("counts fields and sections", () => {
    expect(changeSummary(1, 0)).toBe("1 field changed.");
    expect(changeSummary(2, 1)).toBe("2 fields and 1 other section changed.");
    expect(changeSummary(0, 3)).toBe("3 sections changed in the EHR.");
  });
});
