import { useId, useState, type ReactNode } from "react";
import type { WritableNoteField } from "#contract/clinic-api/note.ts";
import { NOTE_SECTION_KEYS } from "#contract/note/section-digests.ts";
import { Button } from "#src/components/ui/button.tsx";
import { formatRecentTime } from "#src/lib/time-format.ts";
import { useIsWithin } from "#src/lib/use-now.ts";
import { useTimeDisplay } from "#src/lib/use-time-display.tsx";
import { focusNoteTarget } from "../focus-note-target.ts";
import { EarlierSectionBody } from "../reading/note-section-list.tsx";
import type { NoteSectionInfo } from "../reading/note-sections.ts";
import { WRITABLE_FIELD_INFO } from "../writable-fields.ts";
import { sectionIdOf } from "./section-links.ts";
import type { ChangesUnderReader } from "./use-changes-under-reader.ts";

// The mark at a field or section whose text changed in the EHR while the
// reader was looking (changes-under-reader.ts, sections-changed-under-reader.ts):
// when the change reached the screen, on the facility's clock, and what it
// replaced behind a disclosure button. The caller says where focus goes once
// the mark is dismissed (the place it marked).

/** How long a change reads as made "just now". */
const JUST_NOW_MS = 60_000;

export interface ChangedUnderReaderMarkProps {
  testId: string;
  /** What changed, for screen readers ("Other exam comments"). */
  subject: string;
  seenAtMs: number;
  /** The reader's own save in another tab, not the EHR's doing (saved-in-another-tab.ts). */
  savedInAnotherTab?: boolean;
  timezone: string;
  onDismiss: () => void;
  /** What the change replaced. */
  children: ReactNode;
}

export function ChangedUnderReaderMark({ testId, subject, seenAtMs, savedInAnotherTab = false, timezone, onDismiss, children }: ChangedUnderReaderMarkProps) {
  const [isOpen, setOpen] = useState(false);
  const id = useId();
  const display = useTimeDisplay(timezone);
  // A mark read minutes later does not say "just now": its time beside it says when.
  const isJustNow = useIsWithin(seenAtMs, JUST_NOW_MS);
  const titleId = `${id}-title`;
  const replacedId = `${id}-replaced`;

  return (
    <div role="group" aria-labelledby={titleId} data-testid={testId} className="space-y-2 rounded-md border border-sky-300 bg-sky-50 px-3 py-2 text-sm text-slate-900">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p id={titleId} className="font-semibold text-sky-950">
          {savedInAnotherTab ? "Saved by you in another tab" : "Changed in the EHR"}
          {isJustNow ? " just now" : null} <span className="font-normal whitespace-nowrap text-slate-700">({formatRecentTime(seenAtMs, Date.now(), display)})</span>
          <span className="sr-only">: {subject}</span>
        </p>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" aria-expanded={isOpen} aria-controls={replacedId} onClick={() => setOpen((open) => !open)}>
            {isOpen ? "Hide the earlier text" : "Show the earlier text"}
          </Button>
          <Button variant="secondary" onClick={onDismiss} aria-describedby={titleId}>
            Dismiss
          </Button>
        </div>
      </div>
      <div id={replacedId} hidden={!isOpen} data-testid="replaced" className="rounded border-l-4 border-slate-300 bg-white px-2 py-1">
        <p className="text-xs font-semibold tracking-wide text-slate-700 uppercase">What it replaced</p>
        {children}
      </div>
    </div>
  );
}

/** A field's earlier text, as the field showed it. */
function ReplacedText({ text }: { text: string }) {
  const isEmpty = text.trim() === "";
  return (
    <p data-testid="replaced-text" data-user-text="" className={`break-words whitespace-pre-wrap ${isEmpty ? "italic text-slate-700" : ""}`}>
      {isEmpty ? "(empty)" : text}
    </p>
  );
}

/** The mark of a writable field, if it changed under the reader; dismissed, the reader is put in the field. */
export function fieldChangeMarkOf(changes: ChangesUnderReader, field: WritableNoteField, timezone: string): ReactNode {
  const mark = changes.fields[field];
  if (!mark) return null;
  const info = WRITABLE_FIELD_INFO[field];
  const dismiss = () => {
    changes.dismissField(field);
    focusNoteTarget(info.inputId);
  };
  return (
    <ChangedUnderReaderMark testId={`changed-under-reader-${field}`} subject={info.label} seenAtMs={mark.seenAtMs} savedInAnotherTab={mark.savedInAnotherTab} timezone={timezone} onDismiss={dismiss}>
      <ReplacedText text={mark.replaced} />
    </ChangedUnderReaderMark>
  );
}

/** The mark of a section's read-only content, if it changed under the reader; dismissed, the reader is put at the section. */
export function sectionChangeMarkOf(changes: ChangesUnderReader, section: NoteSectionInfo, timezone: string): ReactNode {
  const key = NOTE_SECTION_KEYS.find((candidate) => sectionIdOf(candidate) === section.id);
  const mark = key === undefined ? undefined : changes.sections[key];
  if (key === undefined || !mark) return null;
  const dismiss = () => {
    changes.dismissSection(key);
    focusNoteTarget(section.id);
  };
  return (
    <ChangedUnderReaderMark testId={`changed-under-reader-${section.id}`} subject={section.title} seenAtMs={mark.seenAtMs} timezone={timezone} onDismiss={dismiss}>
      <EarlierSectionBody section={section} note={mark.replaced} />
    </ChangedUnderReaderMark>
  );
}
