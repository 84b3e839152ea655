import type * as z from "zod/mini";

/**
 * One line naming every field that failed and why, e.g.
 * "pageSize: must be at most 100; startDate: is required". Used for 400
 * messages on both sides, so a bad input always names its field.
 */
export function describeZodError(error: z.core.$ZodError, subject?: string): string {
  const parts = error.issues.map((issue) => {
    const path = issue.path.map(String).join(".") || subject || "value";
    const missing = issue.code === "invalid_type" && issue.input === undefined;
    return `${path}: ${missing ? "is required" : issue.message}`;
  });
  return parts.join("; ");
}
