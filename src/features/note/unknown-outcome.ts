import { failingSystemOf } from "#src/api/failing-system.ts";

// The first words about a note write whose outcome is unknown (issue 35
// item 4): which system's answer was lost or failed after the write was sent.
// What the write may have done, and what to do, is the caller's to say.

export function unknownOutcomeLead(error: unknown): string {
  switch (failingSystemOf(error)) {
    case "ehr":
      return "The EHR did not confirm it.";
    case "service":
      return "The clinic data service's answer did not reach Tandem.";
    case "tandem":
      return "Tandem's server failed after sending it.";
    case null:
      return "No answer reached Tandem.";
  }
}
