import * as z from "zod/mini";
import { keptDrafts } from "#src/api/kept-drafts.ts";

// Which version of a waitlist entry its open edit form started from (the
// entry's `updatedAt` when Edit was pressed), kept as the form's draft is
// (kept-waitlist-draft.ts), so a form opened again after a reload still says
// the entry changed elsewhere since the edit began.

const bases = keptDrafts<string>("waitlist-edit-base", z.string());

export const keepEditBase = (entryId: string, updatedAt: string): void => bases.keep(entryId, updatedAt);
export const readEditBase = (entryId: string): string | null => bases.read(entryId);
export const forgetEditBase = (entryId: string): void => bases.forget(entryId);
/** Between tests. */
export const forgetEditBases = (): void => bases.forgetAll();
