import type * as z from "zod/mini";
import { safeParse } from "zod/mini";

// zod/mini ships without message locales (every built-in message is
// "Invalid input"), so the wording of a 400 is made here from the issue's
// code. Messages a schema sets itself are kept.

const GENERIC_MESSAGE = "Invalid input";

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.message && issue.message !== GENERIC_MESSAGE) return issue.message;
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined ? "is required" : `must be ${issue.expected === "int" ? "an integer" : `${/^[aeiou]/.test(issue.expected) ? "an" : "a"} ${issue.expected}`}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}`;
    case "unrecognized_keys":
      return `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")}`;
    case "too_big":
      return issue.origin === "string" ? `must be at most ${String(issue.maximum)} characters` : issue.origin === "array" ? `must have at most ${String(issue.maximum)} items` : `must be at most ${String(issue.maximum)}`;
    case "too_small":
      return issue.origin === "string" ? `must be at least ${String(issue.minimum)} characters` : issue.origin === "array" ? `must have at least ${String(issue.minimum)} items` : `must be at least ${String(issue.minimum)}`;
    case "invalid_format":
      // A pattern without a message of its own: its name ("regex") would tell the user nothing.
      return issue.format === "regex" ? "is not in the form this field takes" : `must be a valid ${issue.format}`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    case "invalid_union":
    case "invalid_key":
    case "invalid_element":
    case "custom":
      return "is not valid";
  }
}

/** A 10 KB query of 5,000 bad ids made a 319 KB message: past this many, the rest are counted. */
const MAX_ISSUES_NAMED = 10;

/**
 * One line naming each field that failed and why, e.g.
 * "pageSize: must be at most 100; startDate: is required". Used for 400
 * messages on both sides, so a bad input always names its field.
 */
export function describeZodError(error: z.core.$ZodError, subject?: string): string {
  const named = error.issues.slice(0, MAX_ISSUES_NAMED).map((issue) => {
    const path = issue.path.map(String).join(".") || subject || "value";
    return `${path}: ${describeIssue(issue)}`;
  });
  const unnamed = error.issues.length - named.length;
  if (unnamed > 0) named.push(`and ${unnamed.toLocaleString("en-US")} more`);
  return named.join("; ");
}

export type DescribedResult<T> = { success: true; data: T } | { success: false; message: string };

/** Parses and, on failure, describes every issue (with the inputs, so a missing field reads "is required"). */
export function parseDescribed<T extends z.ZodMiniType>(schema: T, input: unknown, subject?: string): DescribedResult<z.infer<T>> {
  const result = safeParse(schema, input, { reportInput: true });
  return result.success ? { success: true, data: result.data } : { success: false, message: describeZodError(result.error, subject) };
}

/** A URL's query as one string per name; repeated parameters are joined with commas (seed 001: ids "repeated or comma-separated"). */
export function queryRecord(queries: Record<string, string[]>): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [name, values] of Object.entries(queries)) record[name] = values.join(",");
  return record;
}
