import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { UnconfirmedTask } from "#contract/app-api/note.ts";
import { createNoteTask, markNoteSigned } from "#src/api/note-queries.ts";
import { queryKeys } from "#src/api/query-keys.ts";
import { taskCreateFailure } from "./task-form-model.ts";

// Sending a task whose outcome is unknown again, only after the user answers
// the question (TASK_RESEND_QUESTION): one at a time, under the first try's
// key, so a service that honours Idempotency-Key answers the first task.

export function useTaskResend(noteId: string) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (task: UnconfirmedTask) => createNoteTask(noteId, { notes: task.notes, assigneeIds: task.assigneeIds, confirmPossibleDuplicate: true }),
    onError: (error) => {
      if (taskCreateFailure(error).kind === "signed") markNoteSigned(queryClient, noteId);
    },
    onSettled: () => {
      setAsking(null);
      void queryClient.invalidateQueries({ queryKey: queryKeys.note.tasks(noteId) });
    },
  });
  return { asking, ask: setAsking, mutation };
}
