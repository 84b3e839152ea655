import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import type { TaskCreateRequest } from "#contract/app-api/note.ts";
import { providersQuery } from "#src/api/directory-queries.ts";
import { createNoteTask, markNoteSigned, noteTasksQuery } from "#src/api/note-queries.ts";
import { queryKeys } from "#src/api/query-keys.ts";
import { useBffAnsweredAgain } from "#src/api/use-bff-answered-again.ts";
import { keepTaskDraft, keptTaskDraft } from "./kept-task-draft.ts";
import { assigneeOptions, EMPTY_TASK_DRAFT, firstInvalidField, taskCreateFailure, validateTaskForm, type TaskFormDraft, type TaskFormErrors } from "./task-form-model.ts";

// Creating a task from the note's form: the draft and its errors (checked by
// task-form-model.ts), one create request at a time, the created task added
// to the list, a refused submit focusing its first bad field, and focus put
// back once the request settles. A task like one whose outcome is unknown is
// sent only when the user chooses it (`submitAnyway`), warned it may duplicate.
// The draft is kept for the note across views and reloads (kept-task-draft.ts).

export function useTaskCreate(noteId: string) {
  const queryClient = useQueryClient();
  const providers = useQuery(providersQuery());
  const options = useMemo(() => assigneeOptions(providers.data?.providers ?? []), [providers.data]);

  const [draft, setDraftState] = useState<TaskFormDraft>(() => keptTaskDraft(noteId));
  const setDraft = (next: TaskFormDraft) => {
    keepTaskDraft(noteId, next);
    setDraftState(next);
  };
  const [errors, setErrors] = useState<TaskFormErrors>({});
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false);
  const [announcement, setAnnouncement] = useState({ id: 0, text: "" });

  const formRef = useRef<HTMLFormElement>(null);
  const descriptionRef = useRef<HTMLTextAreaElement>(null);
  const assigneesRef = useRef<HTMLDivElement>(null);
  // Set synchronously on submit: a second click or Enter before React re-renders (and disables the button) is ignored.
  const isSubmitting = useRef(false);
  const shouldRestoreFocus = useRef(false);

  const mutation = useMutation({
    // `confirmPossibleDuplicate`: the user chose to send a task the EHR may have already (its outcome is unknown).
    mutationFn: ({ request, confirmPossibleDuplicate }: { request: TaskCreateRequest; confirmPossibleDuplicate: boolean }) =>
      createNoteTask(noteId, confirmPossibleDuplicate ? { ...request, confirmPossibleDuplicate } : request),
    onSuccess: ({ task }) => {
      queryClient.setQueryData(noteTasksQuery(noteId).queryKey, (current) => (current ? { ...current, tasks: [...current.tasks.filter((other) => other.id !== task.id), task] } : current));
      void queryClient.invalidateQueries({ queryKey: queryKeys.note.tasks(noteId) });
      setDraft(EMPTY_TASK_DRAFT);
      setErrors({});
      setHasTriedSubmit(false);
      setAnnouncement((current) => ({ id: current.id + 1, text: "Task created" }));
    },
    onError: (error) => {
      const { kind } = taskCreateFailure(error);
      if (kind === "signed") markNoteSigned(queryClient, noteId);
      // The list shows the task as not confirmed.
      if (kind === "unknown" || kind === "duplicate") void queryClient.invalidateQueries({ queryKey: queryKeys.note.tasks(noteId) });
    },
    onSettled: () => {
      isSubmitting.current = false;
    },
  });
  const { isPending } = mutation;
  // Tandem's server answering again after a create could not reach it: the
  // task may have got there, so the list is read again, to list it as not
  // confirmed once the BFF knows its outcome is unknown (a write its process
  // left in flight reads so after 60 s; a like task is refused 409 before).
  // After a create refused as Tandem was inactive, its answering again means
  // Tandem is active again (every call was refused until then).
  const failureKind = mutation.isError ? taskCreateFailure(mutation.error).kind : null;
  const serverBack = useBffAnsweredAgain(failureKind === "unreached" || failureKind === "inactive" ? mutation.error : null);
  useEffect(() => {
    if (serverBack && failureKind === "unreached") void queryClient.invalidateQueries({ queryKey: queryKeys.note.tasks(noteId) });
  }, [serverBack, failureKind, queryClient, noteId]);

  // The button was disabled while the request ran, so focus may have fallen to the page: put it back.
  useEffect(() => {
    if (isPending || !shouldRestoreFocus.current) return;
    shouldRestoreFocus.current = false;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const form = formRef.current;
    (form?.querySelector<HTMLButtonElement>("[data-task-retry]") ?? form?.querySelector<HTMLButtonElement>("button[type=submit]"))?.focus();
  }, [isPending]);

  const update = (patch: Partial<TaskFormDraft>) => {
    const next = { ...draft, ...patch };
    setDraft(next);
    // After a refused submit, messages follow the fixes as they are made.
    if (hasTriedSubmit) setErrors(validateTaskForm(next).errors ?? {});
  };

  const focusField = (field: keyof TaskFormErrors) => {
    if (field === "description") descriptionRef.current?.focus();
    else assigneesRef.current?.querySelector("button")?.focus();
  };

  const submit = (event?: FormEvent, confirmPossibleDuplicate = false) => {
    event?.preventDefault();
    if (isSubmitting.current) return;
    const result = validateTaskForm(draft);
    setHasTriedSubmit(true);
    if (!result.request) {
      setErrors(result.errors);
      const first = firstInvalidField(result.errors);
      if (first) focusField(first);
      return;
    }
    setErrors({});
    isSubmitting.current = true;
    shouldRestoreFocus.current = true;
    setAnnouncement((current) => ({ id: current.id + 1, text: "" }));
    mutation.mutate({ request: result.request, confirmPossibleDuplicate });
  };
  /** Sends the form's task although the EHR may have it already: the user's explicit choice after the warning. */
  const submitAnyway = () => submit(undefined, true);

  return { providers, options, draft, errors, announcement, mutation, isPending, serverBack, formRef, descriptionRef, assigneesRef, update, submit, submitAnyway };
}
