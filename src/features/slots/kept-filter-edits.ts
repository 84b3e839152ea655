import * as z from "zod/mini";
import { keptDrafts } from "#src/api/kept-drafts.ts";
import type { SlotTimeDraft } from "#src/scheduling/slot-time-fields.tsx";
import type { SlotFilterDraft } from "./slot-filters.ts";

// The filter form's edits not yet searched, kept from the keystroke in this
// tab (src/api/kept-drafts.ts) with the search they were made over (the
// URL's), so a reload over that search finds them in the form again. One set
// per identity: a search, or edits undone, forgets them.

export interface FilterEdits {
  /** The search the form started from (searchBasis): a reload over another search does not take them. */
  basis: string;
  draft: SlotFilterDraft;
  time: SlotTimeDraft;
}

const weekday = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal(6)]);
const filterEdits = z.object({
  basis: z.string(),
  draft: z.object({
    appointmentTypeId: z.string(),
    facilityIds: z.array(z.string()),
    providerIds: z.array(z.string()),
    startDate: z.string(),
    endDate: z.string(),
    slotLength: z.string(),
    isNewPatient: z.boolean(),
  }),
  time: z.object({ startsFrom: z.string(), startsBefore: z.string(), weekdays: z.array(weekday) }),
});

const kept = keptDrafts<FilterEdits>("slot-filter-edits", filterEdits);
const SUBJECT = "slot-finder";

/** The search a form starts from, as the kept edits name it. */
export const searchBasis = (applied: unknown, appliedTime: unknown): string => JSON.stringify([applied, appliedTime]);

/** The edits kept over `basis`, if any. */
export function readFilterEdits(basis: string): FilterEdits | null {
  const found = kept.read(SUBJECT);
  return found?.basis === basis ? found : null;
}

export const keepFilterEdits = (edits: FilterEdits): void => kept.keep(SUBJECT, edits);
export const forgetFilterEdits = (): void => kept.forget(SUBJECT);
/** Between tests. */
export const forgetAllFilterEdits = (): void => kept.forgetAll();
