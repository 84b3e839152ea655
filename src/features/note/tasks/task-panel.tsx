import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from "react";
import type { TaskCreateRequest } from "../../../../contract/app-api/note.ts";
import type { Task } from "../../../../contract/clinic-api/note.ts";
import { providersQuery } from "../../../api/directory-queries.ts";
import { createNoteTask, markNoteSigned, noteTasksQuery } from "../../../api/note-queries.ts";
import { queryKeys } from "../../../api/query-keys.ts";
import { sessionQuery } from "../../../api/session-query.ts";
import { ApiErrorNotice, describeApiError } from "../../../components/shell/api-error-notice.tsx";
import { Badge } from "../../../components/ui/badge.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { MultiSelectPicker } from "../../../components/ui/multi-select-picker.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { useTimeDisplay } from "../../../lib/use-time-display.tsx";
import { taskElementId, TASKS_ID } from "../note-outline.ts";
import type { PeopleDirectory } from "../reading/people.ts";
import {
  assigneeOptions,
  assigneeSummary,
  descriptionLengthText,
  EMPTY_TASK_DRAFT,
  firstInvalidField,
  formatTaskTime,
  isTaskOpen,
  sortTasksForDisplay,
  syncStatusOf,
  taskCreateFailure,
  taskStatusText,
  validateTaskForm,
  type SyncTone,
  type TaskFormDraft,
  type TaskFormErrors,
} from "./task-form-model.ts";
import { CheckIcon, CrossIcon } from "../../../components/ui/icons.tsx";

// The note's tasks: those Tandem created (the service has no task read, and
// the panel says so) and the form that creates one in the EHR. The acting
// provider is the signed-in user, taken by the BFF from the host token.

export interface TaskPanelProps {
  noteId: string;
  /** Why the note cannot take new tasks (signed); the list stays. */
  readOnlyReason: string | null;
  /** The facility's IANA zone: times are shown in it. */
  timezone: string;
  /** Who the note names: assignees the task leaves unnamed are looked up here. */
  people: PeopleDirectory;
}

export const TASKS_SOURCE_LINE = "Only tasks created through Tandem are listed: the clinic data service has no way to read a note's tasks.";

const SYNC_TONE_CLASS: Record<SyncTone, string> = {
  synced: "text-emerald-800",
  pending: "text-amber-900",
  failed: "font-medium text-red-800",
  unknown: "text-slate-700",
};

/** Only ids of elements that are rendered: a reference to a missing id is an accessibility error. */
const describedBy = (...ids: (string | false | undefined)[]) => ids.filter(Boolean).join(" ") || undefined;

function TaskItem({ task, timezone, people }: { task: Task; timezone: string; people: PeopleDirectory }) {
  const display = useTimeDisplay(timezone);
  const created = formatTaskTime(task.createdAt, display);
  const sync = syncStatusOf(task.syncStatus);
  const isOpen = isTaskOpen(task);
  return (
    // Focusable from the sign-off panel's link to an open task.
    <li id={taskElementId(task.id)} tabIndex={-1} data-testid="note-task" data-task-id={task.id} className={`scroll-mt-4 rounded-lg border border-slate-200 p-3 ${isOpen ? "bg-white" : "bg-slate-50"}`}>
      <p data-user-text="" className="text-sm break-words whitespace-pre-wrap text-slate-900">{task.notes}</p>
      <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs text-slate-700">
        <dt className="font-medium">Assigned to</dt>
        <dd className="break-words">{assigneeSummary(task, people)}</dd>
        <dt className="font-medium">Status</dt>
        <dd>
          <Badge>{taskStatusText(task.status)}</Badge>
        </dd>
        <dt className="font-medium">Sync</dt>
        <dd className={SYNC_TONE_CLASS[sync.tone]}>{sync.text}</dd>
        <dt className="font-medium">Created</dt>
        <dd>{created.iso ? <time dateTime={created.iso}>{created.label}</time> : created.label}</dd>
      </dl>
    </li>
  );
}

function TaskList({ noteId, timezone, people }: { noteId: string; timezone: string; people: PeopleDirectory }) {
  const tasks = useQuery(noteTasksQuery(noteId));
  const sorted = useMemo(() => (tasks.data ? sortTasksForDisplay(tasks.data.tasks) : []), [tasks.data]);
  const retry = () => void tasks.refetch();

  if (tasks.data === undefined) {
    if (tasks.isError) return <ApiErrorNotice error={tasks.error} onRetry={retry} />;
    return (
      <div aria-busy="true" className="space-y-2">
        <p className="sr-only">Loading tasks…</p>
        <Skeleton className="h-16 w-full" />
        <Skeleton className="h-16 w-full" />
      </div>
    );
  }
  return (
    <div className="space-y-2">
      {tasks.isError ? <ApiErrorNotice error={tasks.error} onRetry={retry} /> : null}
      {sorted.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-3 text-sm text-slate-700">No tasks created through Tandem on this note yet.</p>
      ) : (
        <ul aria-label="Tasks created through Tandem" className="space-y-2">
          {sorted.map((task) => (
            <TaskItem key={task.id} task={task} timezone={timezone} people={people} />
          ))}
        </ul>
      )}
    </div>
  );
}

function FailureNotice({ error, isPending, onRetry }: { error: unknown; isPending: boolean; onRetry: () => void }) {
  const failure = taskCreateFailure(error);
  const retryButton = (
    <Button data-task-retry="" variant="secondary" onClick={onRetry} disabled={isPending}>
      Retry
    </Button>
  );
  switch (failure.kind) {
    case "ehr":
    case "unreached":
      return (
        <Notice tone="error" title={failure.title} actions={retryButton}>
          {failure.detail}
        </Notice>
      );
    case "invalid":
    case "signed":
      return (
        <Notice tone="error" title={failure.title}>
          {failure.detail}
        </Notice>
      );
    case "other": {
      const described = describeApiError(error, "write");
      return (
        <Notice tone="error" title={described.title} actions={described.canRetry ? retryButton : undefined}>
          {described.detail} Your text is kept.
        </Notice>
      );
    }
  }
}

function TaskCreateForm({ noteId }: { noteId: string }) {
  const id = useId();
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery());
  const providers = useQuery(providersQuery());
  const options = useMemo(() => assigneeOptions(providers.data?.providers ?? []), [providers.data]);

  const [draft, setDraft] = useState<TaskFormDraft>(EMPTY_TASK_DRAFT);
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
    mutationFn: (request: TaskCreateRequest) => createNoteTask(noteId, request),
    onSuccess: ({ task }) => {
      queryClient.setQueryData(noteTasksQuery(noteId).queryKey, (current) => (current ? { ...current, tasks: [...current.tasks.filter((other) => other.id !== task.id), task] } : current));
      void queryClient.invalidateQueries({ queryKey: queryKeys.note.tasks(noteId) });
      setDraft(EMPTY_TASK_DRAFT);
      setErrors({});
      setHasTriedSubmit(false);
      setAnnouncement((current) => ({ id: current.id + 1, text: "Task created" }));
    },
    onError: (error) => {
      if (taskCreateFailure(error).kind === "signed") markNoteSigned(queryClient, noteId);
    },
    onSettled: () => {
      isSubmitting.current = false;
    },
  });
  const { isPending } = mutation;

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

  const submit = (event?: FormEvent) => {
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
    mutation.mutate(result.request);
  };

  const userName = session.data?.user.displayName;

  return (
    <form ref={formRef} aria-labelledby={`${id}-title`} noValidate onSubmit={submit} className="space-y-3 rounded-lg border border-slate-200 bg-white p-3">
      <h3 id={`${id}-title`} className="text-sm font-semibold">
        Create a task
      </h3>
      <fieldset disabled={isPending} className="min-w-0 space-y-3">
        <div className="min-w-0">
          <label htmlFor={`${id}-description`} className="mb-1 block text-sm font-medium">
            Task description
          </label>
          <textarea
            id={`${id}-description`}
            ref={descriptionRef}
            value={draft.description}
            onChange={(event) => update({ description: event.target.value })}
            rows={3}
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={describedBy(errors.description && `${id}-description-error`, `${id}-description-count`)}
            className={`block w-full min-w-0 rounded-md border bg-white px-2 py-1.5 text-sm disabled:bg-slate-50 ${errors.description ? "border-red-600" : "border-slate-300"}`}
          />
          {errors.description ? (
            <p id={`${id}-description-error`} className="mt-1 text-sm text-red-700">
              <CrossIcon className="mr-1 h-[1em] w-[1em]" />
              {errors.description}
            </p>
          ) : null}
          <p id={`${id}-description-count`} className="mt-1 text-xs text-slate-600">
            {descriptionLengthText(draft.description)}
          </p>
        </div>

        <div ref={assigneesRef} className="min-w-0">
          <MultiSelectPicker
            label="Assign to"
            noun="providers"
            options={options}
            selected={draft.assigneeIds}
            onChange={(assigneeIds) => update({ assigneeIds })}
            isSearchable
            isLoading={providers.isPending}
            error={errors.assigneeIds}
          />
          {providers.isError ? (
            <div className="mt-2">
              <ApiErrorNotice error={providers.error} onRetry={() => void providers.refetch()} />
            </div>
          ) : null}
        </div>

        <p className="text-sm text-slate-700">
          Created as <span className="font-medium text-slate-900">{userName ?? "you"}</span>
          <span className="text-slate-600"> (the user signed in to the EHR)</span>
        </p>

        <Button type="submit" disabled={isPending}>
          {isPending ? "Creating task…" : "Create task"}
        </Button>
      </fieldset>

      {mutation.isError ? <FailureNotice error={mutation.error} isPending={isPending} onRetry={() => submit()} /> : null}

      <p aria-live="polite" aria-atomic="true" className="text-sm text-slate-700">
        {announcement.text ? (
          <span key={announcement.id}>
            <CheckIcon className="mr-1 h-[1em] w-[1em]" />
            {announcement.text}
          </span>
        ) : null}
      </p>
    </form>
  );
}

export function TaskPanel({ noteId, readOnlyReason, timezone, people }: TaskPanelProps) {
  const id = useId();
  return (
    <section id={TASKS_ID} data-testid="task-panel" aria-labelledby={`${id}-heading`} className="scroll-mt-4 space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={`${id}-heading`} className="text-base font-semibold">
        Tasks
      </h2>
      <p className="text-sm text-slate-700">{TASKS_SOURCE_LINE}</p>
      <TaskList noteId={noteId} timezone={timezone} people={people} />
      {readOnlyReason ? <p className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-800">{readOnlyReason}</p> : <TaskCreateForm noteId={noteId} />}
    </section>
  );
}
