import type { Note, WritableNoteField } from "#contract/clinic-api/note.ts";
import { hasText } from "./note-format.ts";

// The sections of a SOAP note in the seed's order (seed 000 "Note (SOAP
// note)"), with their element ids and when each has nothing worth reading.
// Shared by the section list, the section index and the sign-off panel.
//
// Empty means nothing a reader would want: empty arrays, null or blank text,
// objects whose fields are all null or blank, and `false` flags. An array
// item counts only when it carries text (a history heading with no lines, a
// clinical note type with no text or a vitals row with only its time are
// nothing). Sections holding a writable field also count that field's text.

export interface NoteSectionInfo {
  /** The section element's id, `section-<kebab>`. */
  id: string;
  title: string;
  isEmpty(note: Note): boolean;
  /** The writable field edited inside this section; such a section is never collapsed. */
  writableField?: WritableNoteField;
}

const anyText = (...values: (string | null | undefined)[]): boolean => values.some(hasText);

export const NOTE_SECTIONS: readonly NoteSectionInfo[] = [
  {
    id: "section-hpi",
    title: "History of present illness",
    writableField: "additionalHpiComments",
    isEmpty: ({ soapNote: { hpi } }) =>
      !anyText(hpi.historicalSummary, hpi.additionalHpiComments, hpi.independentHistorian, hpi.ros) &&
      ![...hpi.chiefComplaints, ...hpi.secondaryComplaints].some((complaint) => anyText(complaint.title, complaint.description)),
  },
  {
    id: "section-exam",
    title: "Exam",
    writableField: "otherExamComments",
    isEmpty: ({ soapNote: { exam } }) => !hasText(exam.otherExamComments) && !exam.documentedExams.some((item) => anyText(item.title, item.description)),
  },
  {
    id: "section-impressions-plans",
    title: "Impressions and plans",
    writableField: "impressionsPlansComments",
    isEmpty: ({ soapNote }) => !hasText(soapNote.impressionsPlansComments) && !soapNote.impressionsPlans.some((item) => hasText(item.name) || item.plans.length > 0 || item.diagnosisCodes.length > 0),
  },
  {
    id: "section-data-reviewed",
    title: "Data reviewed",
    isEmpty: ({ soapNote }) => !hasText(soapNote.dataReviewed),
  },
  {
    id: "section-vitals",
    title: "Vitals",
    isEmpty: ({ soapNote }) =>
      !soapNote.vitals.some(
        (vital) =>
          [vital.temperature, vital.pulse, vital.bpSystolic, vital.bpDiastolic, vital.respiration, vital.oxygenSaturation, vital.fio2, vital.weight, vital.height, vital.bmi].some((value) => value !== null) ||
          hasText(vital.bsa),
      ),
  },
  {
    id: "section-rx",
    title: "Prescriptions",
    isEmpty: ({ soapNote }) => !soapNote.rx.some((item) => anyText(item.drugName, item.sig)),
  },
  {
    id: "section-tests",
    title: "Tests",
    isEmpty: ({ soapNote }) => !soapNote.tests.some((item) => anyText(item.procedureTest, item.testType, item.subType, item.result, item.plan)),
  },
  {
    id: "section-clinical-notes",
    title: "Clinical notes",
    isEmpty: ({ soapNote }) => !soapNote.clinicalNotes.some((item) => hasText(item.description)),
  },
  {
    id: "section-attachments",
    title: "Attachments",
    isEmpty: ({ soapNote }) => !soapNote.attachments.some((item) => hasText(item.integrationFileId)),
  },
  {
    id: "section-sticky-note",
    title: "Sticky note",
    writableField: "stickyNoteDescription",
    isEmpty: ({ soapNote }) => !hasText(soapNote.stickyNote.description),
  },
  {
    id: "section-billing",
    title: "Billing",
    isEmpty: ({ soapNote }) => !soapNote.billing.some((line) => hasText(line.procedureCode) || hasText(line.description)),
  },
  {
    id: "section-appointments",
    title: "Appointments",
    isEmpty: ({ soapNote }) => soapNote.appointments.length === 0,
  },
  {
    id: "section-mips",
    title: "MIPS quality measures",
    isEmpty: ({ soapNote }) => !soapNote.mips.some((item) => anyText(item.title, item.content)),
  },
  {
    id: "section-counseling",
    title: "Counseling",
    isEmpty: ({ soapNote }) => !soapNote.counseling.some((item) => anyText(item.title, item.content)),
  },
  {
    id: "section-history",
    title: "History",
    isEmpty: ({ soapNote }) => !soapNote.history.some((item) => item.content.some(hasText)),
  },
  {
    id: "section-care-team",
    title: "Care team",
    isEmpty: ({ soapNote: { careTeam } }) => careTeam.physician === null && careTeam.primaryBiller === null && careTeam.attendees.length === 0,
  },
  {
    id: "section-follow-up",
    title: "Follow-up",
    isEmpty: ({ soapNote }) => !soapNote.followUp.some((item) => hasText(item.description)),
  },
  {
    id: "section-time-spent",
    title: "Time spent",
    isEmpty: ({ soapNote: { timeSpent } }) => timeSpent.minutes === null && !timeSpent.activities.some(hasText) && !hasText(timeSpent.attestation),
  },
  {
    id: "section-em-billing",
    title: "E/M billing",
    isEmpty: ({ soapNote: { emBilling } }) => !emBilling.billAsNewPatient && !anyText(emBilling.patientStatusLabel, emBilling.overrideEmCode),
  },
  {
    id: "section-addenda",
    title: "Addenda",
    isEmpty: ({ soapNote }) => !soapNote.addenda.some((item) => anyText(item.note, item.signature)),
  },
];

/** The ids of the sections with nothing worth reading, in note order. */
export function emptySectionIds(note: Note): string[] {
  return NOTE_SECTIONS.filter((section) => section.isEmpty(note)).map((section) => section.id);
}

export function noteSectionById(id: string): NoteSectionInfo | undefined {
  return NOTE_SECTIONS.find((section) => section.id === id);
}

/** The id of a section's `<h2>`. */
export function sectionHeadingId(sectionId: string): string {
  return `${sectionId}-heading`;
}

/**
 * Sections the signer usually fills before signing an office visit: the
 * history, exam and assessment they document, the vitals taken at the visit,
 * and what the seed's drafts leave empty until the visit is written up
 * (follow-up, time spent; E/M billing states the visit level). Left out on
 * purpose: data reviewed, rx, tests, counseling, MIPS, attachments and the
 * sticky note (present only when relevant to the visit), billing lines (often
 * coded by a biller after signing), appointments and care team (filled by the
 * EHR), addenda (written after signing). Telehealth visits have no vitals, so
 * a consumer should word a missing one as a prompt, not a blocker.
 */
export const SIGNER_USUALLY_FILLS: readonly string[] = [
  "section-hpi",
  "section-exam",
  "section-impressions-plans",
  "section-vitals",
  "section-follow-up",
  "section-time-spent",
  "section-em-billing",
];
