import { useState } from "react";
import type { Note } from "#contract/clinic-api/note.ts";
import { useTimeDisplay } from "#src/lib/use-time-display.tsx";
import { describeAiReview, type AiReviewState } from "../ai-review.ts";
import { SUMMARY_ID } from "../note-outline.ts";
import {
  dateOfBirthText,
  formatVisitDate,
  hasText,
  initialsOf,
  noteStatusText,
  noteStatusTone,
  parseNoteInstant,
  patientDisplayName,
  readableValue,
  type StatusTone,
} from "./note-format.ts";
import { peopleOf, UNNAMED_EHR_USER_LABEL } from "./people.ts";
import { NotRecorded, TextBadge, type BadgeTone } from "./reading-parts.tsx";

// The top of the note: who (patient with photo), where and when (facility,
// visit time in the facility's zone), who owns it, its status and version,
// and what the AI review found.

const TONE_BY_STATUS: Record<StatusTone, BadgeTone> = { pending: "warning", done: "success", working: "info", neutral: "neutral" };
const TONE_BY_AI_REVIEW: Record<AiReviewState, BadgeTone> = { issues: "warning", clear: "success", pending: "info", unknown: "neutral" };

/** The patient's photo, or their initials when there is none or it fails to load (the URL is time-limited and may have expired). */
function PatientAvatar({ src, name, initials }: { src: string; name: string; initials: string }) {
  const [failed, setFailed] = useState(false);
  if (failed || !hasText(src)) {
    return (
      <span aria-hidden="true" data-testid="patient-initials" className="grid h-12 w-12 shrink-0 place-items-center rounded-full bg-brand-100 text-sm font-semibold text-brand-800">
        {initials}
      </span>
    );
  }
  return (
    <img
      src={src}
      alt={`Photo of ${name}`}
      width={48}
      height={48}
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
      className="h-12 w-12 shrink-0 rounded-full border border-slate-200 bg-slate-100 object-cover"
    />
  );
}

export function NoteHeader({ note }: { note: Note }) {
  const { patient, facility } = note;
  const display = useTimeDisplay(facility.timezone);
  const name = patientDisplayName(patient);
  const visitAt = parseNoteInstant(note.visitDate);
  const details = [
    hasText(patient.mrn) ? `MRN ${patient.mrn.trim()}` : null,
    hasText(patient.dateOfBirth) ? (visitAt === null ? `DOB ${patient.dateOfBirth}` : dateOfBirthText(patient.dateOfBirth, visitAt, display)) : null,
    hasText(patient.gender) ? readableValue(patient.gender) : null,
  ].filter((detail): detail is string => detail !== null);
  const label = "text-xs font-medium text-slate-600";
  const aiReview = describeAiReview(note.aiStatus, note.aiIssueCount);

  return (
    <section id={SUMMARY_ID} aria-label="Note summary" data-testid="note-header" className="scroll-mt-4 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-start gap-3">
        {/* Keyed by URL: a refreshed photo link gets a fresh attempt after an expired one failed. */}
        <PatientAvatar key={patient.avatar} src={patient.avatar} name={name} initials={initialsOf(patient)} />
        <div className="min-w-0 flex-1 basis-48">
          <p data-testid="note-patient-name" className="text-lg leading-tight font-semibold break-words text-slate-900">
            {name}
          </p>
          {details.length > 0 ? <p className="text-sm text-slate-700">{details.join(" · ")}</p> : null}
        </div>
        <p className="flex flex-wrap gap-1.5">
          <span id="note-status" tabIndex={-1} data-testid="note-status" className="outline-none">
            <TextBadge tone={TONE_BY_STATUS[noteStatusTone(note.status)]}>{noteStatusText(note.status)}</TextBadge>
          </span>
          <span data-testid="note-version">
            <TextBadge>Version {note.version}</TextBadge>
          </span>
        </p>
      </div>
      <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <div>
          <dt className={label}>Facility</dt>
          <dd className="text-slate-900">{facility.name}</dd>
        </div>
        <div>
          <dt className={label}>Visit</dt>
          <dd className="text-slate-900">{visitAt === null ? note.visitDate : <time dateTime={new Date(visitAt).toISOString()}>{formatVisitDate(visitAt, display)}</time>}</dd>
        </div>
        <div>
          <dt className={label}>Assigned providers</dt>
          <dd className="text-slate-900">
            {note.assignedProviders.length === 0 ? (
              <NotRecorded>None assigned</NotRecorded>
            ) : (
              <ul>
                {note.assignedProviders.map((provider) => (
                  <li key={provider.id}>
                    {peopleOf(note).label(provider.id) ?? UNNAMED_EHR_USER_LABEL}
                    {provider.roles.length > 0 ? <span className="text-slate-600"> ({provider.roles.join(", ")})</span> : null}
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
        <div>
          <dt className={label}>AI review</dt>
          <dd className="space-y-1 text-slate-900" data-testid="note-ai-review" data-ai-review={aiReview.state}>
            <TextBadge tone={TONE_BY_AI_REVIEW[aiReview.state]}>{aiReview.label}</TextBadge>
            <p>
              {aiReview.finding} {aiReview.advice}
            </p>
          </dd>
        </div>
      </dl>
    </section>
  );
}
