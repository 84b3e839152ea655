import { hasText, readableValue } from "./reading/note-format.ts";
import { isolateText } from "#src/lib/bidi.ts";

// What the EHR's AI review of the note says, in plain words, and what the
// clinician should do about it. The service gives two fields only: `aiStatus`
// and `aiIssueCount` (seed 000 "Note"), never the issues themselves, so no
// wording here promises a list. `issues_found` appears in the seeds; the
// emulator also produces `no_issues` and `pending` (assumed); anything else
// is named as the EHR sent it and sent back to the EHR to check.

export type AiReviewState = "issues" | "clear" | "pending" | "unknown";

export interface AiReviewSummary {
  state: AiReviewState;
  /** A few words for a badge: "3 issues found". */
  label: string;
  /** What the review found: "The EHR's AI review found 3 issues in this note." */
  finding: string;
  /** What to do about it; empty when nothing is needed. */
  advice: string;
  /** The clinician should look at the review in the EHR before signing. */
  needsReview: boolean;
}

const KNOWN_STATUSES = { issuesFound: "issues_found", clear: "no_issues", pending: "pending" } as const;

const issues = (count: number) => `${count} ${count === 1 ? "issue" : "issues"}`;

export function describeAiReview(aiStatus: string, aiIssueCount: number): AiReviewSummary {
  const count = Number.isInteger(aiIssueCount) && aiIssueCount > 0 ? aiIssueCount : 0;
  const status = aiStatus.trim();
  // A count is a finding whatever the status says: issues are never hidden behind a status that disagrees.
  if (count > 0 && status !== KNOWN_STATUSES.pending) {
    return {
      state: "issues",
      label: `${issues(count)} found`,
      finding: `The EHR's AI review found ${issues(count)} in this note.`,
      advice: `Review ${count === 1 ? "it" : "them"} in the EHR before signing: Tandem is told how many, not what they are.`,
      needsReview: true,
    };
  }
  switch (status) {
    case KNOWN_STATUSES.issuesFound:
      return {
        state: "issues",
        label: "Issues found",
        finding: "The EHR's AI review found issues in this note.",
        advice: "Review them in the EHR before signing: Tandem is not told what they are.",
        needsReview: true,
      };
    case KNOWN_STATUSES.clear:
      return { state: "clear", label: "No issues found", finding: "The EHR's AI review found no issues in this note.", advice: "", needsReview: false };
    case KNOWN_STATUSES.pending:
      return {
        state: "pending",
        label: "Not finished",
        finding: "The EHR's AI review of this note has not finished.",
        advice: "Check its result in the EHR before signing.",
        needsReview: true,
      };
    default: {
      const advice = "Check the AI review in the EHR before signing.";
      if (!hasText(status)) return { state: "unknown", label: "No result given", finding: "The EHR gives no result for its AI review of this note.", advice, needsReview: true };
      const named = readableValue(status);
      return { state: "unknown", label: named, finding: `The EHR reports “${isolateText(named)}” for its AI review of this note, which Tandem does not recognise.`, advice, needsReview: true };
    }
  }
}
