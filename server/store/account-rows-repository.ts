import { and, eq, inArray } from "drizzle-orm";
import * as z from "zod/mini";
import type { AccountRowsRepository } from "./store.ts";
import type { StoreDatabase } from "./database.ts";
import { noteDrafts, noteViews, slotHolds } from "./schema.ts";

// Before ADR 0024, holds, drafts and last views were kept under the account
// that signed in (a host token's or a standalone sign-in's `sub`); they are
// now kept under the person key. Which person an account's rows belong to is
// known only when that account is seen acting as a provider of the
// organization, so they are moved then, in one transaction (the BFF does it
// once per account and process: server/auth/account-adoption.ts). Where the
// person already has a row for the same note (the same clinician had a draft
// inside and outside the EHR), nothing is dropped: a draft keeps every field
// either held, the newer text where both typed the same field; a view keeps
// the newer one, which is what the person last saw. The audit trail is not
// rewritten: its entries from before person keys are read as the account's
// (AuditTrail.recentResources).

const textByName = z.record(z.string(), z.string());

export function createAccountRowsRepository(db: StoreDatabase): AccountRowsRepository {
  return {
    async adopt(organizationId, accountId, userId) {
      if (accountId === userId) return { holds: 0, drafts: 0, views: 0 };
      return db.transaction(async (tx) => {
        const holds = await tx
          .update(slotHolds)
          .set({ userId })
          .where(and(eq(slotHolds.organizationId, organizationId), eq(slotHolds.userId, accountId)))
          .returning({ holdId: slotHolds.holdId });

        const draftsOf = (user: string, noteIds?: string[]) =>
          tx
            .select()
            .from(noteDrafts)
            .where(and(eq(noteDrafts.organizationId, organizationId), eq(noteDrafts.userId, user), ...(noteIds ? [inArray(noteDrafts.noteId, noteIds)] : [])));
        const oldDrafts = await draftsOf(accountId);
        const personDrafts = oldDrafts.length === 0 ? [] : await draftsOf(userId, oldDrafts.map((draft) => draft.noteId));
        for (const old of oldDrafts) {
          const own = personDrafts.find((draft) => draft.noteId === old.noteId);
          const byAccount = and(eq(noteDrafts.organizationId, organizationId), eq(noteDrafts.userId, accountId), eq(noteDrafts.noteId, old.noteId));
          if (own === undefined) {
            await tx.update(noteDrafts).set({ userId }).where(byAccount);
            continue;
          }
          const [older, newer] = own.updatedAt >= old.updatedAt ? [old, own] : [own, old];
          await tx
            .update(noteDrafts)
            .set({
              fields: { ...textByName.parse(older.fields), ...textByName.parse(newer.fields) },
              baseline: { ...textByName.parse(older.baseline), ...textByName.parse(newer.baseline) },
              noteVersion: newer.noteVersion,
              updatedAt: newer.updatedAt,
            })
            .where(and(eq(noteDrafts.organizationId, organizationId), eq(noteDrafts.userId, userId), eq(noteDrafts.noteId, old.noteId)));
          await tx.delete(noteDrafts).where(byAccount);
        }

        const viewsOf = (user: string, noteIds?: string[]) =>
          tx
            .select()
            .from(noteViews)
            .where(and(eq(noteViews.organizationId, organizationId), eq(noteViews.userId, user), ...(noteIds ? [inArray(noteViews.noteId, noteIds)] : [])));
        const oldViews = await viewsOf(accountId);
        const personViews = oldViews.length === 0 ? [] : await viewsOf(userId, oldViews.map((view) => view.noteId));
        for (const old of oldViews) {
          const own = personViews.find((view) => view.noteId === old.noteId);
          const byAccount = and(eq(noteViews.organizationId, organizationId), eq(noteViews.userId, accountId), eq(noteViews.noteId, old.noteId));
          if (own === undefined) {
            await tx.update(noteViews).set({ userId }).where(byAccount);
          } else {
            if (old.seenAt > own.seenAt) {
              const { fields, sectionDigests, noteUpdatedAt, seenAt } = old;
              await tx
                .update(noteViews)
                .set({ fields, sectionDigests, noteUpdatedAt, seenAt })
                .where(and(eq(noteViews.organizationId, organizationId), eq(noteViews.userId, userId), eq(noteViews.noteId, old.noteId)));
            }
            await tx.delete(noteViews).where(byAccount);
          }
        }
        return { holds: holds.length, drafts: oldDrafts.length, views: oldViews.length };
      });
    },
  };
}
