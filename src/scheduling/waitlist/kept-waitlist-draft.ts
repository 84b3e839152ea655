import * as z from "zod/mini";
import { keptDrafts } from "#src/api/kept-drafts.ts";
import type { WaitlistDraft } from "./waitlist-form-model.ts";

// A waitlist form's draft kept from the keystroke until the BFF has the entry
// (src/api/kept-drafts.ts), under the form's subject: the patient being added,
// or the entry being edited.

const keptDraft = z.object({
  appointmentTypeId: z.string(),
  slotLength: z.string(),
  isNewPatient: z.boolean(),
  facilityIds: z.array(z.string()),
  providerIds: z.array(z.string()),
  startDate: z.string(),
  endDate: z.string(),
  startsFrom: z.string(),
  startsBefore: z.string(),
  weekdays: z.array(z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal(6)])),
  note: z.string(),
});

const drafts = keptDrafts<WaitlistDraft>("waitlist-draft", keptDraft);

export const readKeptDraft = (subject: string): WaitlistDraft | null => drafts.read(subject);
export const keepDraft = (subject: string, draft: WaitlistDraft): void => drafts.keep(subject, draft);
export const forgetDraft = (subject: string): void => drafts.forget(subject);
/** Between tests. */
export const forgetWaitlistDrafts = (): void => drafts.forgetAll();
