import type { ComponentType, ReactNode } from "react";
import type { Note, WritableNoteField } from "#contract/clinic-api/note.ts";
import {
  AttachmentsBody,
  ClinicalNotesBody,
  DataReviewedBody,
  ExamBody,
  HpiBody,
  ImpressionsPlansBody,
  RxBody,
  StickyNoteBody,
  TestsBody,
  VitalsBody,
  type SectionBodyProps,
} from "./clinical-sections.tsx";
import { NOTE_SECTIONS, sectionHeadingId, type NoteSectionInfo } from "./note-sections.ts";
import {
  AddendaBody,
  AppointmentsBody,
  BillingBody,
  CareTeamBody,
  CounselingBody,
  EmBillingBody,
  FollowUpBody,
  HistoryBody,
  MipsBody,
  TimeSpentBody,
} from "./record-sections.tsx";
import { ChevronRightIcon } from "#src/components/ui/icons.tsx";

// Every section of the note in the seed's order, each a labelled <section>
// with an <h2>. An empty section collapses to a closed <details> so the
// reader still sees it exists; a section holding a writable field never
// collapses, since the caller's editor lives there. `renderSectionMark` puts
// the caller's mark under a section's title (a change made under the reader).

/** Marks the element the section index focuses: the <h2> of an open section, the <summary> of a collapsed one. */
export const SECTION_FOCUS_ATTRIBUTE = "data-section-focus";

const BODIES: Readonly<Record<string, ComponentType<SectionBodyProps>>> = {
  "section-hpi": HpiBody,
  "section-exam": ExamBody,
  "section-impressions-plans": ImpressionsPlansBody,
  "section-data-reviewed": DataReviewedBody,
  "section-vitals": VitalsBody,
  "section-rx": RxBody,
  "section-tests": TestsBody,
  "section-clinical-notes": ClinicalNotesBody,
  "section-attachments": AttachmentsBody,
  "section-sticky-note": StickyNoteBody,
  "section-billing": BillingBody,
  "section-appointments": AppointmentsBody,
  "section-mips": MipsBody,
  "section-counseling": CounselingBody,
  "section-history": HistoryBody,
  "section-care-team": CareTeamBody,
  "section-follow-up": FollowUpBody,
  "section-time-spent": TimeSpentBody,
  "section-em-billing": EmBillingBody,
  "section-addenda": AddendaBody,
};

const focusProps = { [SECTION_FOCUS_ATTRIBUTE]: "" };

type RenderSectionMark = (section: NoteSectionInfo) => ReactNode;

function CollapsedSection({ section, mark }: { section: NoteSectionInfo; mark: ReactNode }) {
  const headingId = sectionHeadingId(section.id);
  return (
    <section id={section.id} aria-labelledby={headingId} data-empty="true" className="scroll-mt-4 rounded-lg border border-slate-200 bg-white">
      <details className="group">
        <summary {...focusProps} className="flex cursor-pointer list-none flex-wrap items-baseline gap-x-2 rounded-lg px-4 py-2 text-sm hover:bg-slate-50 [&::-webkit-details-marker]:hidden">
          <span className="inline-block w-3 self-center text-slate-600 transition-transform group-open:rotate-90">
            <ChevronRightIcon className="h-3 w-3" />
          </span>{" "}
          <h2 id={headingId} className="inline text-sm font-semibold text-slate-800">
            {section.title}
          </h2>{" "}
          <span className="text-slate-600">Nothing recorded</span>
        </summary>
        <p className="px-4 pb-3 pl-9 text-sm text-slate-700">This section of the EHR note has no content.</p>
      </details>
      {mark ? <div className="px-4 pb-3">{mark}</div> : null}
    </section>
  );
}

function OpenSection({ section, mark, children }: { section: NoteSectionInfo; mark: ReactNode; children: ReactNode }) {
  const headingId = sectionHeadingId(section.id);
  return (
    <section id={section.id} aria-labelledby={headingId} className="scroll-mt-4 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={headingId} tabIndex={-1} {...focusProps} className="mb-2 text-base font-semibold text-slate-900">
        {section.title}
      </h2>
      {mark ? <div className="mb-3">{mark}</div> : null}
      {children}
    </section>
  );
}

export function NoteSectionList({ note, renderWritableField, renderSectionMark }: { note: Note; renderWritableField: (field: WritableNoteField) => ReactNode; renderSectionMark?: RenderSectionMark }) {
  return (
    <div data-testid="note-sections" className="space-y-3">
      {NOTE_SECTIONS.map((section) => {
        const Body = BODIES[section.id];
        const mark = renderSectionMark?.(section);
        if (section.writableField === undefined && section.isEmpty(note)) return <CollapsedSection key={section.id} section={section} mark={mark} />;
        return (
          <OpenSection key={section.id} section={section} mark={mark}>
            {Body ? <Body note={note} sectionId={section.id} renderWritableField={renderWritableField} /> : null}
          </OpenSection>
        );
      })}
    </div>
  );
}

const noWritableField = () => null;

/**
 * A section's read-only content as an earlier version of the note had it,
 * to show what a change replaced: its writable field left out (that field has
 * its own mark), its element ids kept apart from the section on screen.
 */
export function EarlierSectionBody({ section, note }: { section: NoteSectionInfo; note: Note }) {
  const Body = BODIES[section.id];
  if (section.isEmpty(note) || !Body) return <p className="text-sm text-slate-700 italic">Nothing recorded</p>;
  return <Body note={note} sectionId={`${section.id}-earlier`} renderWritableField={noWritableField} />;
}
