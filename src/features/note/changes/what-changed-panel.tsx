import { useId, useState } from "react";
import type { NoteFieldChange } from "#contract/app-api/note-changes.ts";
import type { Note } from "#contract/clinic-api/note.ts";
import type { NoteSectionKey } from "#contract/note/section-digests.ts";
import { Button } from "#src/components/ui/button.tsx";
import { formatRecentTime } from "#src/lib/time-format.ts";
import { useTimeDisplay } from "#src/lib/use-time-display.tsx";
import { focusNoteTarget } from "../focus-note-target.ts";
import { WRITABLE_FIELD_INFO } from "../writable-fields.ts";
import { changedByText, changeSummary } from "./change-wording.ts";
import { sectionIdOf, sectionTitleOf } from "./section-links.ts";
import { useNoteChanges } from "./use-note-changes.ts";

// "Changed since you last looked" (ADR 0016): near the top of a note the user
// has seen before in Tandem, each writable field that changed since, with
// who changed it, its text then and now, and a link to it; then the other
// sections that changed (in the EHR: Tandem writes nothing else). Nothing on
// a first view, nothing when nothing changed; dismissible.

export function WhatChangedPanel({ noteId, note }: { noteId: string; note: Note }) {
  const changes = useNoteChanges(noteId, note);
  const [isDismissed, setDismissed] = useState(false);
  const headingId = useId();
  const display = useTimeDisplay(note.facility.timezone);
  const data = changes.data;
  if (isDismissed || !data || data.lastSeenAt === null || (data.fields.length === 0 && data.sections.length === 0)) return null;
  const lastSeen = formatRecentTime(Date.parse(data.lastSeenAt), Date.now(), display);

  return (
    <section data-testid="what-changed-panel" aria-labelledby={headingId} className="rounded-lg border border-sky-300 bg-sky-50 p-3 text-slate-900">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 id={headingId} className="text-base font-semibold">
            Changed since you last looked ({lastSeen})
          </h2>
          <p className="text-sm text-slate-700">{changeSummary(data.fields.length, data.sections.length)}</p>
        </div>
        <Button variant="secondary" onClick={() => setDismissed(true)} aria-describedby={headingId}>
          Dismiss
        </Button>
      </div>
      {data.fields.length > 0 ? (
        <ul className="mt-2 space-y-2">
          {data.fields.map((change) => (
            <FieldChange key={change.field} change={change} />
          ))}
        </ul>
      ) : null}
      {data.sections.length > 0 ? <ChangedSections keys={data.sections.map((section) => section.id)} /> : null}
    </section>
  );
}

function FieldChange({ change }: { change: NoteFieldChange }) {
  const info = WRITABLE_FIELD_INFO[change.field];
  return (
    <li data-testid={`changed-field-${change.field}`} className="rounded-md border border-slate-200 bg-white p-2 text-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h3 className="font-semibold">{info.label}</h3>
        <a
          href={`#${info.inputId}`}
          className="text-brand-700 underline underline-offset-2 hover:text-brand-800"
          onClick={(event) => {
            event.preventDefault();
            focusNoteTarget(info.inputId);
          }}
        >
          Go to {info.label}
        </a>
      </div>
      <p className="text-slate-700">{changedByText(change)}</p>
      <dl className="mt-1 grid gap-2 sm:grid-cols-2">
        <FieldText term="Before" text={change.before} testId="text-before" tone="border-slate-300 bg-slate-50 text-slate-700" />
        <FieldText term="Now" text={change.after} testId="text-after" tone="border-sky-600 bg-white text-slate-900" />
      </dl>
    </li>
  );
}

function FieldText({ term, text, testId, tone }: { term: string; text: string; testId: string; tone: string }) {
  const isEmpty = text.trim() === "";
  return (
    <div className={`min-w-0 rounded border-l-4 px-2 py-1 ${tone}`}>
      <dt className="text-xs font-semibold tracking-wide uppercase">{term}</dt>
      <dd data-testid={testId} data-user-text="" className={`break-words whitespace-pre-wrap ${isEmpty ? "italic" : ""}`}>
        {isEmpty ? "(empty)" : text}
      </dd>
    </div>
  );
}

function ChangedSections({ keys }: { keys: NoteSectionKey[] }) {
  return (
    <div className="mt-2 text-sm">
      <h3 className="font-semibold">Also changed in the EHR</h3>
      <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
        {keys.map((key) => (
          <li key={key}>
            <a
              href={`#${sectionIdOf(key)}`}
              className="text-brand-700 underline underline-offset-2 hover:text-brand-800"
              onClick={(event) => {
                event.preventDefault();
                focusNoteTarget(sectionIdOf(key));
              }}
            >
              {sectionTitleOf(key)}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
