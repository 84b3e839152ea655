import { describe, expect, it } from "vitest";
import type { NoteDraft } from "../store/store.ts";
import { draftAfterSave, planNoteChange } from "./note-change.ts";

const draft = (fields: Record<string, string>, baseline: Record<string, string>): NoteDraft => ({
  organizationId: "o",
  userId: "u",
  noteId: "n",
  fields,
  baseline,
  noteVersion: 4,
  updatedAt: 1,
});

describe("planNoteChange", () => {
  it("names exactly the fields of the request, in the upstream body", () => {
    const plan = planNoteChange({ stickyNoteDescription: "", otherExamComments: "x", baseline: { otherExamComments: "old" } });
    expect(plan).toEqual({ upstreamBody: { otherExamComments: "x", stickyNoteDescription: "" }, changedFields: ["otherExamComments", "stickyNoteDescription"], baseline: { otherExamComments: "old" } });
  });

  it("refuses an empty change and a baseline for a field not being changed", () => {
    expect(planNoteChange({})).toEqual({ error: expect.stringMatching(/name at least one field/) as unknown });
    expect(planNoteChange({ otherExamComments: "x", baseline: { additionalHpiComments: "y" } })).toEqual({ error: expect.stringMatching(/^baseline\.additionalHpiComments/) as unknown });
  });
});

describe("draftAfterSave", () => {
  it("drops fields saved with exactly the drafted text, and the draft when nothing is left", () => {
    expect(draftAfterSave(draft({ otherExamComments: "a" }, { otherExamComments: "" }), { otherExamComments: "a" }, 2)).toBeNull();
  });

  it("keeps text typed since the save, now starting from the saved text, and fields not saved", () => {
    const rest = draftAfterSave(draft({ otherExamComments: "ab", stickyNoteDescription: "s" }, { otherExamComments: "", stickyNoteDescription: "" }), { otherExamComments: "a" }, 2);
    expect(rest).toMatchObject({ fields: { otherExamComments: "ab", stickyNoteDescription: "s" }, baseline: { otherExamComments: "a", stickyNoteDescription: "" }, updatedAt: 2 });
  });
});
