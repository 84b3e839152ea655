import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import type { RecentNote } from "#contract/app-api/recent-notes.ts";
import { recentNotesQuery } from "#src/api/recent-notes-query.ts";
import { ApiErrorNotice } from "#src/components/shell/api-error-notice.tsx";
import { Notice } from "#src/components/ui/notice.tsx";
import { Skeleton } from "#src/components/ui/skeleton.tsx";
import { formatRecentTime } from "#src/lib/time-format.ts";
import { useTimeDisplay } from "#src/lib/use-time-display.tsx";
import { formatVisitDate, noteStatusText, noteStatusTone, patientDisplayName, type StatusTone } from "../reading/note-format.ts";
import { TextBadge, type BadgeTone } from "../reading/reading-parts.tsx";

// Outside the EHR no note is in view: the Note tab lists the notes this
// clinician opened or edited in Tandem (GET /api/notes/recent), newest first,
// each a real link to `/note?noteId=`, so nobody types a note id (ADR 0015).

const TONE_BY_STATUS: Record<StatusTone, BadgeTone> = { pending: "warning", done: "success", working: "info", neutral: "neutral" };

const frame = "mx-auto max-w-3xl space-y-3";

function Heading() {
  return (
    <div className="space-y-1">
      <h1 className="text-lg font-semibold text-slate-900">Your recent notes</h1>
      <p className="text-sm text-slate-700">The notes you opened or edited in Tandem, newest first, each read afresh from the EHR&apos;s data when you come here.</p>
    </div>
  );
}

export function RecentNotes() {
  const recent = useQuery(recentNotesQuery());
  if (recent.isPending) {
    return (
      <section className={frame} data-testid="recent-notes" data-state="loading">
        <Heading />
        <div aria-busy="true" className="space-y-2">
          <p className="sr-only">Loading your recent notes…</p>
          <Skeleton className="h-20 w-full" />
          <Skeleton className="h-20 w-full" />
          <Skeleton className="h-20 w-full" />
        </div>
      </section>
    );
  }
  if (recent.isError) {
    return (
      <section className={frame} data-testid="recent-notes" data-state="error">
        <Heading />
        <ApiErrorNotice error={recent.error} onRetry={() => void recent.refetch()} />
      </section>
    );
  }
  const { notes, meta } = recent.data;
  return (
    <section className={frame} data-testid="recent-notes" data-state="ready">
      <Heading />
      {notes.length === 0 ? (
        <div data-testid="recent-notes-empty">
          <Notice title="No recent notes yet">
            Each note you open or edit in Tandem outside the EHR is listed here, so you can come back to it. The clinic data service gives Tandem no list of the EHR&apos;s notes, so a note is
            first listed once you open it from a link to it in Tandem.
          </Notice>
        </div>
      ) : (
        <ol className="divide-y divide-slate-200 overflow-hidden rounded-lg border border-slate-200 bg-white">
          {notes.map((note) => (
            <RecentNoteRow key={note.noteId} note={note} />
          ))}
        </ol>
      )}
      {meta.unavailable > 0 ? (
        <p className="text-sm text-slate-700" data-testid="recent-notes-unavailable">
          {meta.unavailable === 1 ? "1 note you opened earlier is" : `${meta.unavailable} notes you opened earlier are`} no longer open to you: deleted in the EHR, or no longer assigned to you.
        </p>
      ) : null}
    </section>
  );
}

function RecentNoteRow({ note }: { note: RecentNote }) {
  const display = useTimeDisplay(note.facility.timezone);
  const visit = formatVisitDate(Date.parse(note.visitAt), display);
  const lastOpened = formatRecentTime(Date.parse(note.lastOpenedAt), Date.now(), display);
  const { firstName, middleName, lastName } = note.patient;
  const patientName = patientDisplayName({ firstName, lastName, ...(middleName === null ? {} : { middleName }) });
  return (
    <li data-testid="recent-note">
      <Link to="/note" search={{ noteId: note.noteId }} className="group block px-4 py-3 hover:bg-slate-50 focus-visible:-outline-offset-2">
        {/* The badge keeps the top right; a long name wraps beside it rather than pushing it under. */}
        <span className="flex items-start justify-between gap-3">
          <span className="min-w-0 font-semibold break-words text-brand-800 underline-offset-2 group-hover:underline">{patientName}</span>
          <span className="shrink-0">
            <TextBadge tone={TONE_BY_STATUS[noteStatusTone(note.status)]}>{noteStatusText(note.status)}</TextBadge>
          </span>
        </span>
        <span className="mt-0.5 block text-sm text-slate-800">
          Visit {visit}
          <span className="hidden sm:inline"> · </span>
          <span className="block sm:inline">{note.facility.name}</span>
        </span>
        <span className="mt-0.5 block text-sm text-slate-600">{note.edited ? `Edited by you · last opened ${lastOpened}` : `Opened ${lastOpened}`}</span>
      </Link>
    </li>
  );
}
