import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { sessionQuery } from "#src/api/session-query.ts";
import { ApiErrorNotice, useApiErrorDescription, useRateLimitWaitLeft } from "#src/components/shell/api-error-notice.tsx";
import { Button } from "#src/components/ui/button.tsx";
import { CheckIcon, CrossIcon } from "#src/components/ui/icons.tsx";
import { MultiSelectPicker } from "#src/components/ui/multi-select-picker.tsx";
import { Notice } from "#src/components/ui/notice.tsx";
import { useAskBeforeUnload } from "#src/lib/use-ask-before-unload.ts";
import { descriptionLengthText, hasTaskDraft, taskCreateFailure } from "./task-form-model.ts";
import { useTaskCreate } from "./use-task-create.ts";
import { describedBy } from "#src/components/ui/form-field.tsx";

// The form that creates a task in the EHR, as the signed-in user (the BFF
// takes the acting provider from the host token), and what it says when
// creating fails.

/** `serverBack`: Tandem's server has answered again since the create could not reach it, or was refused as Tandem was inactive. */
function FailureNotice({ error, isPending, serverBack, onRetry, onSendAnyway }: { error: unknown; isPending: boolean; serverBack: boolean; onRetry: () => void; onSendAnyway: () => void }) {
  // A rate limit's wait counts down while the notice is up, never a wait long over.
  const failure = taskCreateFailure(error, useRateLimitWaitLeft(error));
  const described = useApiErrorDescription(error, "write");
  const retryButton = (
    <Button data-task-retry="" variant="secondary" onClick={onRetry} disabled={isPending}>
      Retry
    </Button>
  );
  switch (failure.kind) {
    case "ehr":
    case "unreached":
      return (
        <Notice tone={serverBack ? "warning" : "error"} title={serverBack ? "Tandem's server is answering again." : failure.title} actions={retryButton}>
          {failure.detail}
        </Notice>
      );
    case "inactive":
      return serverBack ? (
        <Notice tone="warning" title="Tandem is active again." actions={retryButton}>
          Nothing was created. Your text is kept: create the task now.
        </Notice>
      ) : (
        <Notice tone="error" title={failure.title}>
          {failure.detail}
        </Notice>
      );
    case "duplicate":
      return (
        <Notice
          tone="warning"
          title={failure.title}
          actions={
            <Button data-task-retry="" variant="secondary" onClick={onSendAnyway} disabled={isPending}>
              Send it again anyway
            </Button>
          }
        >
          {failure.detail}
        </Notice>
      );
    case "unknown":
    case "invalid":
    case "signed":
      return (
        <Notice tone="error" title={failure.title}>
          {failure.detail}
        </Notice>
      );
    case "other":
      return (
        <Notice tone="error" title={described.title} actions={described.canRetry ? retryButton : undefined}>
          {described.detail} Your text is kept.
        </Notice>
      );
  }
}
export function TaskCreateForm({ noteId }: { noteId: string }) {
  const id = useId();
  const session = useQuery(sessionQuery());
  const { providers, options, draft, errors, announcement, mutation, isPending, serverBack, formRef, descriptionRef, assigneesRef, update, submit, submitAnyway } = useTaskCreate(noteId);

  const userName = session.data?.user.displayName;
  // Not yet sent: a reload or Sign out asks first, as the waitlist form does (the kept draft may have no sessionStorage to live in).
  useAskBeforeUnload(hasTaskDraft(draft), "a task not yet created");

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

      {mutation.isError ? <FailureNotice error={mutation.error} isPending={isPending} serverBack={serverBack} onRetry={() => submit()} onSendAnyway={submitAnyway} /> : null}

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
