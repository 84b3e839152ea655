import { RecurrenceError } from "#contract/recurrence/expand-template.ts";
import { expandTemplate, type AvailabilityInstance, type AvailabilityTemplate } from "./expand-template.ts";

// The client-side expansion the grid draws (the contract's, via
// expand-template.ts), memoised per (template, window): paging back to a week
// or re-rendering costs a map lookup. Templates are keyed by object identity;
// TanStack Query's structural sharing keeps an unchanged template the same
// object across refetches, and a changed one is a new object, so the cache
// never serves a stale expansion. A rule the expansion cannot read gives an
// error result for that template instead of throwing through the view.

export interface ExpansionWindowDates {
  startDate: string;
  endDate: string;
}

export type TemplateExpansion = { isReadable: true; instances: readonly AvailabilityInstance[] } | { isReadable: false; reason: string; instances: readonly AvailabilityInstance[] };

const EMPTY: readonly AvailabilityInstance[] = [];
const cache = new WeakMap<AvailabilityTemplate, Map<string, TemplateExpansion>>();
/** Per template; a week view asks for a handful of windows per template, so this only bounds a long paging session. */
const WINDOWS_PER_TEMPLATE = 64;

/**
 * The template's instances starting in the window. With `asIfActive`, an
 * inactive template is expanded as if it were active (to draw it greyed);
 * otherwise it has none, as the contract says.
 */
export function expandTemplateCached(template: AvailabilityTemplate, window: ExpansionWindowDates, options: { asIfActive?: boolean } = {}): TemplateExpansion {
  const asIfActive = options.asIfActive === true && !template.active;
  const key = `${window.startDate}|${window.endDate}|${asIfActive ? "preview" : ""}`;
  let perWindow = cache.get(template);
  const cached = perWindow?.get(key);
  if (cached) return cached;
  let result: TemplateExpansion;
  try {
    result = { isReadable: true, instances: expandTemplate(asIfActive ? { ...template, active: true } : template, window) };
  } catch (error) {
    // RecurrenceError: a rule the contract cannot read. A RangeError: a zone or time the runtime does not know.
    if (!(error instanceof RecurrenceError) && !(error instanceof RangeError)) throw error;
    result = { isReadable: false, reason: error.message, instances: EMPTY };
  }
  if (!perWindow) {
    perWindow = new Map();
    cache.set(template, perWindow);
  } else if (perWindow.size >= WINDOWS_PER_TEMPLATE) {
    perWindow.clear();
  }
  perWindow.set(key, result);
  return result;
}
