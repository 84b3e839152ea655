import * as z from "zod/mini";
import { currentCacheIdentity, identityKey } from "#src/api/cache-identity.ts";
import type { WaitlistDraft } from "./waitlist-form-model.ts";

// A waitlist form's draft kept from the keystroke until the BFF has the entry
// (DESIGN.md: nothing typed is lost): in this page's memory, so leaving the
// view and coming back finds it, and in sessionStorage where the browser lets
// the frame have it (a reload), never localStorage (the note may hold patient
// data). Kept under the organization and user who typed it (ADR 0025) and the
// form's subject (the patient being added, or the entry being edited).

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

const inMemory = new Map<string, WaitlistDraft>();
const storageKey = (subject: string) => `tandem.waitlist-draft.${identityKey(currentCacheIdentity())}.${subject}`;

export function readKeptDraft(subject: string): WaitlistDraft | null {
  const key = storageKey(subject);
  const held = inMemory.get(key);
  if (held) return held;
  try {
    const raw = window.sessionStorage.getItem(key);
    if (raw === null) return null;
    const parsed = z.safeParse(keptDraft, JSON.parse(raw) as unknown);
    return parsed.success ? parsed.data : null;
  } catch {
    return null; // storage blocked (a cross-site frame) or a mangled value
  }
}

export function keepDraft(subject: string, draft: WaitlistDraft): void {
  const key = storageKey(subject);
  inMemory.set(key, draft);
  try {
    window.sessionStorage.setItem(key, JSON.stringify(draft));
  } catch {
    // kept in memory only
  }
}

export function forgetDraft(subject: string): void {
  const key = storageKey(subject);
  inMemory.delete(key);
  try {
    window.sessionStorage.removeItem(key);
  } catch {
    // nothing was stored
  }
}
