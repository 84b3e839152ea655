import { describe, expect, it } from "vitest";
import { describeAiReview } from "./ai-review.ts";

describe("describeAiReview", () => {
  it("says how many issues the EHR found and sends the clinician there, promising no list", () => {
    expect(describeAiReview("issues_found", 3)).toEqual({
      state: "issues",
      label: "3 issues found",
      finding: "The EHR's AI review found 3 issues in this note.",
      advice: "Review them in the EHR before signing: Tandem is told how many, not what they are.",
      needsReview: true,
    });
    expect(describeAiReview("issues_found", 1)).toMatchObject({ label: "1 issue found", advice: expect.stringMatching(/^Review it in the EHR/) as unknown });
  });

  it("still sends the clinician to the EHR when issues come without a count", () => {
    expect(describeAiReview("issues_found", 0)).toMatchObject({ state: "issues", label: "Issues found", finding: "The EHR's AI review found issues in this note.", needsReview: true });
  });

  it("says plainly when the review found nothing, and asks for nothing", () => {
    expect(describeAiReview("no_issues", 0)).toEqual({ state: "clear", label: "No issues found", finding: "The EHR's AI review found no issues in this note.", advice: "", needsReview: false });
  });

  it("never hides a count behind a status that disagrees", () => {
    expect(describeAiReview("no_issues", 2)).toMatchObject({ state: "issues", label: "2 issues found", needsReview: true });
  });

  it("says a review still running has not finished", () => {
    expect(describeAiReview("pending", 0)).toMatchObject({ state: "pending", label: "Not finished", finding: "The EHR's AI review of this note has not finished.", advice: "Check its result in the EHR before signing.", needsReview: true });
  });

  it("names a status it does not know as the EHR sent it, and sends the clinician to the EHR", () => {
    expect(describeAiReview("needsHumanReview", 0)).toEqual({
      state: "unknown",
      label: "Needs human review",
      finding: "The EHR reports “Needs human review” for its AI review of this note, which Tandem does not recognise.",
      advice: "Check the AI review in the EHR before signing.",
      needsReview: true,
    });
    expect(describeAiReview("  ", 0)).toMatchObject({ state: "unknown", label: "No result given", needsReview: true });
  });

  it("reads a nonsense count as no count", () => {
    expect(describeAiReview("no_issues", -1)).toMatchObject({ state: "clear" });
    expect(describeAiReview("no_issues", Number.NaN)).toMatchObject({ state: "clear" });
  });
});
