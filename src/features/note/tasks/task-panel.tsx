import { useQuery } from "@tanstack/react-query";
import { useId, useMemo } from "react";
import type { Task } from "#contract/clinic-api/note.ts";
import { noteTasksQuery } from "#src/api/note-queries.ts";
import { ApiErrorNotice } from "#src/components/shell/api-error-notice.tsx";
import { Badge } from "#src/components/ui/badge.tsx";
import { Skeleton } from "#src/components/ui/skeleton.tsx";
import { useTimeDisplay } from "#src/lib/use-time-display.tsx";
import { taskElementId, TASKS_ID } from "../note-outline.ts";
import type { PeopleDirectory } from "../reading/people.ts";
import { assigneeSummary, formatTaskTime, isTaskOpen, sortTasksForDisplay, syncStatusOf, taskStatusText, type SyncTone } from "./task-form-model.ts";
import { TaskCreateForm } from "./task-create-form.tsx";
import { UnconfirmedTaskList } from "./unconfirmed-task-list.tsx";

// The note's tasks: those Tandem created (the service has no task read, and
// the panel says so), those whose outcome is unknown (the EHR may have
// created them), and the form that creates one in the EHR. The acting
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

function TaskList({ noteId, timezone, people, canResend }: { noteId: string; timezone: string; people: PeopleDirectory; canResend: boolean }) {
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
      <UnconfirmedTaskList noteId={noteId} tasks={tasks.data.unconfirmed} timezone={timezone} people={people} canResend={canResend} />
      {sorted.length > 0 ? (
        <ul aria-label="Tasks created through Tandem" className="space-y-2">
          {sorted.map((task) => (
            <TaskItem key={task.id} task={task} timezone={timezone} people={people} />
          ))}
        </ul>
      ) : tasks.data.unconfirmed.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-3 text-sm text-slate-700">No tasks created through Tandem on this note yet.</p>
      ) : null}
    </div>
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
      <TaskList noteId={noteId} timezone={timezone} people={people} canResend={readOnlyReason === null} />
      {readOnlyReason ? <p className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-800">{readOnlyReason}</p> : <TaskCreateForm noteId={noteId} />}
    </section>
  );
}
