import * as z from "zod/mini";
import { localDate } from "#contract/clinic-api/primitives.ts";
import { availabilityInstance, availabilityTemplate } from "#contract/clinic-api/schedule.ts";

// The shapes of templates.json (the input) and instances.json (what
// expand_independent.py computed from it with python-dateutil and zoneinfo).
// Both files are outside data to the tests that read them: parsed here, with
// the contract's own template and instance schemas (seed 000 "Availability
// template").

const expansionWindow = z.object({ startDate: localDate, endDate: localDate });

export const independentTemplates = z.object({
  cases: z.array(
    z.object({
      name: z.string(),
      template: availabilityTemplate,
      windows: z.array(expansionWindow),
    }),
  ),
});
export type IndependentTemplates = z.infer<typeof independentTemplates>;

export const independentFixture = z.object({
  /** Versions the instances were computed with; the tz database decides the offsets. */
  generator: z.object({ dateutil: z.string(), tzdata: z.string() }),
  cases: z.array(
    z.object({
      name: z.string(),
      template: availabilityTemplate,
      windows: z.array(z.extend(expansionWindow, { instances: z.array(availabilityInstance) })),
    }),
  ),
});
export type IndependentFixture = z.infer<typeof independentFixture>;

/** Parses the text of instances.json; throws a ZodError naming the field when it does not fit. */
export function parseIndependentFixture(text: string): IndependentFixture {
  return z.parse(independentFixture, JSON.parse(text));
}

/** Parses the text of templates.json. */
export function parseIndependentTemplates(text: string): IndependentTemplates {
  return z.parse(independentTemplates, JSON.parse(text));
}
