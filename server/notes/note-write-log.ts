import { randomUUID } from "node:crypto";
import { readsAsUnknown } from "../clinic/write-outcome.ts";
import type { WriteIntent, WriteIntentKind, WriteIntentRepository, WriteOutcome } from "../store/store.ts";

// The note's writes (a task, a note PATCH, an image delete) recorded before
// they are sent and settled from the answer (issue 35 item 4; DESIGN.md
// "Nothing typed is lost and nothing is done twice"), so an answer lost after
// the service may have acted is an outcome of its own, `unknown`, which the
// user sees as "the EHR may have done this" and which a later read settles
// where the service can show it (the note's fields, its images).

export interface NoteWriteLog {
  /** Records the write as `pending` (throws when the store cannot: then nothing is sent); answers its id. */
  begin(intent: { organizationId: string; userId: string; kind: WriteIntentKind; subjectId: string; request: unknown }): Promise<string>;
  /** Settles it; false when it was settled already or the store could not (a `pending` row left behind reads as unknown). */
  settle(organizationId: string, id: string, outcome: Exclude<WriteOutcome, "pending">, resultId?: string | null): Promise<boolean>;
  /** The note's writes of a kind whose outcome is not known: `unknown`, and `pending` ones past their time in flight (readsAsUnknown). */
  unsettled(organizationId: string, kind: WriteIntentKind, noteId: string): Promise<WriteIntent[]>;
  /** The same, `pending` ones still in flight included. */
  open(organizationId: string, kind: WriteIntentKind, noteId: string): Promise<WriteIntent[]>;
}

export function createNoteWriteLog(intents: WriteIntentRepository, now: () => number, onSettleFailed: (error: unknown, id: string) => void): NoteWriteLog {
  return {
    async begin(intent) {
      const id = randomUUID();
      await intents.record({ ...intent, id, createdAt: now() });
      return id;
    },
    async settle(organizationId, id, outcome, resultId = null) {
      try {
        return await intents.settle(organizationId, id, { outcome, resultId, at: now() });
      } catch (error) {
        onSettleFailed(error, id);
        return false;
      }
    },
    async unsettled(organizationId, kind, noteId) {
      const open = await intents.listUnsettled(organizationId, kind, { subjectId: noteId });
      return open.filter((intent) => readsAsUnknown(intent, now()));
    },
    open: (organizationId, kind, noteId) => intents.listUnsettled(organizationId, kind, { subjectId: noteId }),
  };
}
