import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { UnconfirmedTask } from "#contract/app-api/note.ts";
import { idKey } from "#contract/ids.ts";
import { providersQuery } from "#src/api/directory-queries.ts";
import { useRateLimitWaitLeft } from "#src/components/shell/api-error-notice.tsx";
import { Button } from "#src/components/ui/button.tsx";
import { Notice } from "#src/components/ui/notice.tsx";
import { useTimeDisplay } from "#src/lib/use-time-display.tsx";
import { unconfirmedTaskElementId } from "../note-outline.ts";
import type { PeopleDirectory } from "../reading/people.ts";
import { formatSentAt, TASK_RESEND_QUESTION, taskCreateFailure } from "./task-form-model.ts";
import { useTaskResend } from "./use-task-resend.ts";

// Tasks Tandem sent whose answer never came back (issue 35 item 4): the EHR
// may have created them, and the service has no task read to find out. Each
// says so, and is sent again only when the user answers the question that
// warns it may then be in the EHR twice.

export const UNCONFIRMED_TASKS_LABEL = "Tasks the EHR has not confirmed";

export function UnconfirmedTaskItem({ task, timezone, names, canResend, isAsking, isSending, onAsk, onCancel, onResend }: {
  task: UnconfirmedTask;
  timezone: string;
  names: string;
  canResend: boolean;
  isAsking: boolean;
  isSending: boolean;
  onAsk: () => void;
  onCancel: () => void;
  onResend: () => void;
}) {
  const sent = formatSentAt(task.sentAt, useTimeDisplay(timezone));
  return (
    <li id={unconfirmedTaskElementId(task.intentId)} tabIndex={-1} data-testid="unconfirmed-task" className="scroll-mt-4 rounded-lg border border-amber-300 bg-amber-50 p-3">
      <p data-user-text="" className="text-sm break-words whitespace-pre-wrap text-slate-900">{task.notes}</p>
      <p className="mt-1 text-xs text-slate-700">Assigned to {names}</p>
      <p className="mt-2 text-sm text-amber-950">
        The EHR may have created this task: Tandem sent it{task.isOwn ? "" : " for another user"} at{" "}
        {sent.iso ? <time dateTime={sent.iso}>{sent.label}</time> : sent.label} and the EHR did not confirm it. Check the note&apos;s tasks in the EHR.
      </p>
      {canResend ? (
        isAsking ? (
          <div role="group" aria-label="Send this task again?" className="mt-2 space-y-2">
            <p className="text-sm font-medium text-slate-900">{TASK_RESEND_QUESTION}</p>
            <div className="flex gap-2">
              <Button variant="secondary" onClick={onResend} disabled={isSending}>
                {isSending ? "Sending…" : "Send again"}
              </Button>
              <Button variant="secondary" onClick={onCancel} disabled={isSending}>
                Cancel
              </Button>
            </div>
          </div>
        ) : (
          <Button className="mt-2" variant="secondary" onClick={onAsk}>
            Send again…
          </Button>
        )
      ) : null}
    </li>
  );
}

export function UnconfirmedTaskList({ noteId, tasks, timezone, people, canResend }: { noteId: string; tasks: readonly UnconfirmedTask[]; timezone: string; people: PeopleDirectory; canResend: boolean }) {
  const providers = useQuery(providersQuery());
  const { asking, ask, mutation } = useTaskResend(noteId);
  const nameById = useMemo(() => new Map((providers.data?.providers ?? []).map((provider) => [idKey(provider.id), provider.displayName])), [providers.data]);
  const waitLeft = useRateLimitWaitLeft(mutation.isError ? mutation.error : null);
  if (tasks.length === 0) return null;
  const namesOf = (task: UnconfirmedTask) => task.assigneeIds.map((id) => nameById.get(idKey(id)) ?? people.nameOf(id) ?? "an EHR user").join(", ");
  const failure = mutation.isError ? taskCreateFailure(mutation.error, waitLeft) : null;
  return (
    <div className="space-y-2">
      {failure && failure.kind !== "other" ? <Notice tone="error" title={failure.title}>{failure.detail}</Notice> : null}
      <ul aria-label={UNCONFIRMED_TASKS_LABEL} className="space-y-2">
        {tasks.map((task) => (
          <UnconfirmedTaskItem
            key={task.intentId}
            task={task}
            timezone={timezone}
            names={namesOf(task)}
            canResend={canResend}
            isAsking={asking === task.intentId}
            isSending={mutation.isPending && mutation.variables.intentId === task.intentId}
            onAsk={() => ask(task.intentId)}
            onCancel={() => ask(null)}
            onResend={() => mutation.mutate(task)}
          />
        ))}
      </ul>
    </div>
  );
}
