import type { KeyboardEvent, ReactNode } from "react";
import { Badge } from "#src/components/ui/badge.tsx";
import { Button } from "#src/components/ui/button.tsx";
import { Spinner } from "#src/components/ui/spinner.tsx";
import { formatRecentTime } from "#src/lib/time-format.ts";
import { useSecondsLeft } from "#src/lib/use-now.ts";
import { useTimeDisplay } from "#src/lib/use-time-display.tsx";
import { resendWaitOf, statusText, type EditorStatus } from "./editor-state.ts";
import type { NoteEditor } from "./use-note-editor.ts";
import { AlertIcon, CheckIcon, CrossIcon, DotIcon, LockIcon } from "#src/components/ui/icons.tsx";

// The always-visible save status of the note ("Unsaved changes", "Saving…",
// "Saved 9:40 AM", "Not saved: the EHR did not answer"), with Save, Retry and
// where the draft is kept, or that it is on screen only. Only the status
// sentence is live: counts and the draft line change with typing and would
// chatter, as would the seconds left before a failed save goes again.

/** Ctrl+S / Cmd+S saves while focus is inside the note, instead of the browser's save dialog. Attach to the note area's onKeyDown. */
export function handleSaveShortcut(event: KeyboardEvent<HTMLElement>, editor: NoteEditor): void {
  if (event.defaultPrevented || event.key.toLowerCase() !== "s" || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
  event.preventDefault();
  editor.save();
}

const TONE: Record<EditorStatus["kind"], { text: string; icon: ReactNode }> = {
  readOnly: { text: "text-slate-800", icon: <LockIcon className="h-4 w-4" /> },
  draftWaiting: { text: "text-amber-900", icon: <DotIcon className="h-4 w-4" /> },
  saving: { text: "text-slate-800", icon: null },
  conflict: { text: "text-amber-900", icon: <AlertIcon className="h-4 w-4" /> },
  failed: { text: "text-red-800", icon: <CrossIcon className="h-4 w-4" /> },
  unsaved: { text: "text-slate-800", icon: <DotIcon className="h-4 w-4" /> },
  saved: { text: "text-emerald-800", icon: <CheckIcon className="h-4 w-4" /> },
  clean: { text: "text-slate-700", icon: null },
};

export function SaveStatusBar({ editor, timezone }: { editor: NoteEditor; timezone: string }) {
  const { status } = editor;
  const display = useTimeDisplay(timezone);
  const clock = (epochMs: number) => formatRecentTime(epochMs, Date.now(), display);
  const changed = editor.dirtyFields.length;
  const canRetry = status.kind === "failed" && (status.failure.kind === "system" || status.failure.canRetry);
  const tone = TONE[status.kind];
  const text = statusText(status, clock);
  // Counted from the failure's first render: the failure object is the same until the save's next outcome.
  const failure = status.kind === "failed" ? status.failure : null;
  const secondsLeft = useSecondsLeft(failure, failure === null ? null : resendWaitOf(failure));
  return (
    <div id="note-save-status" data-testid="save-status-bar" data-status={status.kind} className="sticky top-0 z-10 flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-slate-200 bg-white px-3 py-2">
      <p role="status" aria-live="polite" aria-atomic="true" className={`flex min-w-0 items-center gap-2 text-sm font-medium ${tone.text}`}>
        {status.kind === "saving" ? (
          <Spinner />
        ) : (
          tone.icon
        )}
        {secondsLeft === null ? (
          <span>{text}</span>
        ) : (
          <>
            {/* Heard once, as the save fails; the count shown beside it changes every second and is not read out. */}
            <span className="sr-only">{text}</span>
            <span aria-hidden="true" data-testid="save-status-countdown">
              {statusText(status, clock, secondsLeft)}
            </span>
          </>
        )}
      </p>
      {changed > 0 ? <Badge>{changed === 1 ? "1 field changed" : `${changed} fields changed`}</Badge> : null}
      {status.kind === "unsaved" && status.lastSavedAtMs !== null ? <span className="text-xs text-slate-700">Last saved {clock(status.lastSavedAtMs)}</span> : null}
      {editor.draftKept ? <span className="text-xs text-slate-700">{editor.draftKept === "bff" ? "Draft kept" : "Draft kept in this browser tab only"}</span> : null}
      {/* Always in the page, so a screen reader hears the warning when it comes (it does not change with typing). */}
      <span aria-live="polite" data-testid="draft-unkept" className={editor.draftUnkeptText !== null ? "text-xs font-medium text-amber-900" : "sr-only"}>
        {editor.draftUnkeptText ?? ""}
      </span>
      <div className="ml-auto flex gap-2">
        {canRetry ? (
          <Button variant="secondary" onClick={editor.retry}>
            Retry
          </Button>
        ) : null}
        {editor.readOnlyReason === null ? (
          <Button onClick={editor.save} disabled={!editor.canSave} aria-keyshortcuts="Control+S Meta+S" title="Save (Ctrl+S, or Cmd+S on a Mac)">
            Save
          </Button>
        ) : null}
      </div>
    </div>
  );
}
