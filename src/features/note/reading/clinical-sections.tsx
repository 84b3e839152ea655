import type { ReactNode } from "react";
import type { Note, SoapNote, WritableNoteField } from "#contract/clinic-api/note.ts";
import {
  formatBloodPressure,
  formatBmi,
  formatBsa,
  formatFio2,
  formatHeight,
  formatNoteDate,
  formatNoteDateTime,
  formatOxygenSaturation,
  formatPulse,
  formatRespiration,
  formatTemperature,
  formatWeight,
  hasText,
  parseNoteInstant,
  readableValue,
} from "./note-format.ts";
import { peopleOf } from "./people.ts";
import { localDateOf } from "#contract/time/zoned-time.ts";
import { formatTime, type TimeDisplay } from "#src/lib/time-format.ts";
import { useTimeDisplay } from "#src/lib/use-time-display.tsx";
import { CodeList, FieldList, NotRecorded, Subheading, TextBadge, TextBlock, textOrNull } from "./reading-parts.tsx";

// The clinical sections of the note, read-only: HPI, exam, impressions and
// plans, data reviewed, vitals, prescriptions, tests, clinical notes,
// attachments and the sticky note. The three writable fields among them are
// left to the caller's `renderWritableField`.

export interface SectionBodyProps {
  note: Note;
  sectionId: string;
  renderWritableField: (field: WritableNoteField) => ReactNode;
}

function WritableSlot({ field, render }: { field: WritableNoteField; render: (field: WritableNoteField) => ReactNode }) {
  return (
    <div className="mt-3" data-writable-field={field}>
      {render(field)}
    </div>
  );
}

type Complaint = SoapNote["hpi"]["chiefComplaints"][number];

function ComplaintList({ complaints, impressions }: { complaints: readonly Complaint[]; impressions: SoapNote["impressionsPlans"] }) {
  const shown = complaints.filter((complaint) => hasText(complaint.title) || hasText(complaint.description));
  return (
    <ul className="space-y-2">
      {shown.map((complaint, index) => {
        const impression = complaint.impressionId === null ? undefined : impressions.find((candidate) => candidate.impressionId === complaint.impressionId);
        return (
          <li key={`${index}-${complaint.title}`} className="text-sm">
            <p className="font-medium text-slate-900">{hasText(complaint.title) ? complaint.title : "Untitled complaint"}</p>
            <TextBlock text={complaint.description} />
            {impression && hasText(impression.name) ? <p className="text-xs text-slate-600">Linked impression: {impression.name}</p> : null}
          </li>
        );
      })}
    </ul>
  );
}

export function HpiBody({ note, sectionId, renderWritableField }: SectionBodyProps) {
  const { hpi, impressionsPlans } = note.soapNote;
  const hasChief = hpi.chiefComplaints.some((complaint) => hasText(complaint.title) || hasText(complaint.description));
  const hasSecondary = hpi.secondaryComplaints.some((complaint) => hasText(complaint.title) || hasText(complaint.description));
  const hasOther = hasText(hpi.historicalSummary) || hasText(hpi.independentHistorian) || hasText(hpi.ros);
  return (
    <div className="space-y-3">
      <TextBlock text={hpi.historicalSummary} />
      {hasChief ? (
        <div className="space-y-1">
          <Subheading id={`${sectionId}-chief`}>Chief complaints</Subheading>
          <ComplaintList complaints={hpi.chiefComplaints} impressions={impressionsPlans} />
        </div>
      ) : null}
      {hasSecondary ? (
        <div className="space-y-1">
          <Subheading id={`${sectionId}-secondary`}>Secondary complaints</Subheading>
          <ComplaintList complaints={hpi.secondaryComplaints} impressions={impressionsPlans} />
        </div>
      ) : null}
      <FieldList
        fields={[
          { label: "Independent historian", value: textOrNull(hpi.independentHistorian) },
          { label: "Review of systems", value: textOrNull(hpi.ros) },
        ]}
      />
      {!hasChief && !hasSecondary && !hasOther ? (
        <p className="text-sm">
          <NotRecorded>No history recorded in the EHR.</NotRecorded>
        </p>
      ) : null}
      <WritableSlot field="additionalHpiComments" render={renderWritableField} />
    </div>
  );
}

export function ExamBody({ note, renderWritableField }: SectionBodyProps) {
  const exams = note.soapNote.exam.documentedExams.filter((exam) => hasText(exam.title) || hasText(exam.description));
  return (
    <div className="space-y-3">
      {exams.length > 0 ? (
        <FieldList fields={exams.map((exam, index) => ({ label: hasText(exam.title) ? exam.title.trim() : `Exam ${index + 1}`, value: textOrNull(exam.description) ?? <NotRecorded>No findings written</NotRecorded> }))} />
      ) : (
        <p className="text-sm">
          <NotRecorded>No exam documented in the EHR.</NotRecorded>
        </p>
      )}
      <WritableSlot field="otherExamComments" render={renderWritableField} />
    </div>
  );
}

type Impression = SoapNote["impressionsPlans"][number];

function ImpressionCard({ impression, headingId }: { impression: Impression; headingId: string }) {
  const plans = impression.plans.filter((plan) => hasText(plan.title) || hasText(plan.fullText));
  const assessments = impression.assessments.filter((assessment) => hasText(assessment.name) || hasText(assessment.value));
  const complexity = hasText(impression.dxComplexity) ? `${impression.dxComplexity.trim()}${impression.dxComplexityIsEhrDefault ? " (EHR default)" : ""}` : null;
  return (
    <article aria-labelledby={headingId} className="space-y-2 rounded-lg border border-slate-200 bg-slate-50 p-3">
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <h3 id={headingId} className="text-sm font-semibold text-slate-900">
          {hasText(impression.name) ? impression.name : "Unnamed impression"}
        </h3>
        {impression.diagnosisCodes.length > 0 ? (
          <span className="text-sm text-slate-700">
            <CodeList codes={impression.diagnosisCodes} />
          </span>
        ) : null}
      </div>
      {impression.isNew || impression.isRuleout || hasText(impression.dxStatus) ? (
        <p className="flex flex-wrap gap-1.5">
          {impression.isNew ? <TextBadge tone="info">New problem</TextBadge> : null}
          {impression.isRuleout ? <TextBadge tone="warning">Rule out</TextBadge> : null}
          {hasText(impression.dxStatus) ? <TextBadge>Status: {impression.dxStatus.trim()}</TextBadge> : null}
        </p>
      ) : null}
      <TextBlock text={impression.summary} />
      <FieldList
        fields={[
          { label: "Complexity", value: complexity },
          { label: "Morphology", value: textOrNull(impression.morphology) },
          { label: "Body locations", value: impression.bodyLocations.filter(hasText).join(", ") || null },
          { label: "Differential", value: textOrNull(impression.ddx) },
          { label: "Associated diagnosis", value: textOrNull(impression.associatedDx) },
          { label: "Cause", value: textOrNull(impression.causeDx) },
          { label: "Override note", value: textOrNull(impression.overrideNote) },
        ]}
      />
      {plans.length > 0 ? (
        <div className="space-y-1">
          <h4 className="text-sm font-semibold text-slate-800">Plans</h4>
          <ul className="space-y-2">
            {plans.map((plan, index) => (
              <li key={`${index}-${plan.title}`} className="rounded-md border border-slate-200 bg-white p-2 text-sm">
                <p className="font-medium text-slate-900">
                  {hasText(plan.title) ? plan.title : "Plan"}
                  {hasText(plan.location) ? <span className="font-normal text-slate-700"> · {plan.location}</span> : null}
                </p>
                <TextBlock text={plan.fullText} />
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="text-sm">
          <NotRecorded>No plan written yet.</NotRecorded>
        </p>
      )}
      {assessments.length > 0 ? (
        <div className="space-y-1">
          <h4 className="text-sm font-semibold text-slate-800">Assessments</h4>
          <FieldList fields={assessments.map((assessment, index) => ({ label: hasText(assessment.name) ? assessment.name.trim() : `Assessment ${index + 1}`, value: textOrNull(assessment.value) ?? <NotRecorded /> }))} />
        </div>
      ) : null}
    </article>
  );
}

export function ImpressionsPlansBody({ note, sectionId, renderWritableField }: SectionBodyProps) {
  const impressions = note.soapNote.impressionsPlans;
  return (
    <div className="space-y-3">
      {impressions.length > 0 ? (
        <ol className="space-y-3">
          {impressions.map((impression, index) => (
            <li key={`${impression.impressionId}-${index}`}>
              <ImpressionCard impression={impression} headingId={`${sectionId}-item-${index}`} />
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-sm">
          <NotRecorded>No impressions recorded in the EHR.</NotRecorded>
        </p>
      )}
      <WritableSlot field="impressionsPlansComments" render={renderWritableField} />
    </div>
  );
}

export function DataReviewedBody({ note }: SectionBodyProps) {
  return <TextBlock text={note.soapNote.dataReviewed} />;
}

type Vital = SoapNote["vitals"][number];

const VITAL_ROWS: readonly { label: ReactNode; key: string; value: (vital: Vital, note: Note) => string | null }[] = [
  { label: "Temperature", key: "temperature", value: (vital) => formatTemperature(vital.temperature, vital.temperatureType) },
  { label: "Pulse", key: "pulse", value: (vital) => formatPulse(vital.pulse) },
  { label: "Blood pressure", key: "bp", value: (vital) => formatBloodPressure(vital.bpSystolic, vital.bpDiastolic, vital.bpPosition) },
  { label: "Respiration", key: "respiration", value: (vital) => formatRespiration(vital.respiration) },
  {
    label: (
      <>
        Oxygen saturation (SpO<sub>2</sub>)
      </>
    ),
    key: "spo2",
    value: (vital) => formatOxygenSaturation(vital.oxygenSaturation),
  },
  {
    label: (
      <>
        Inspired oxygen (FiO<sub>2</sub>)
      </>
    ),
    key: "fio2",
    value: (vital) => formatFio2(vital.fio2, vital.fio2Device),
  },
  { label: "Weight", key: "weight", value: (vital) => formatWeight(vital.weight, vital.weightType) },
  { label: "Height", key: "height", value: (vital) => formatHeight(vital.height, vital.heightType) },
  { label: "BMI", key: "bmi", value: (vital) => formatBmi(vital.bmi) },
  { label: "Body surface area", key: "bsa", value: (vital) => formatBsa(vital.bsa) },
  { label: "Taken by", key: "taken-by", value: (vital, note) => peopleOf(note).label(vital.takenByIntegrationUserId) },
];

/** "Taken 09:11" on the visit's day, else "Taken" with the day too. */
function vitalColumnLabel(vital: Vital, note: Note, display: TimeDisplay): string {
  const takenAt = parseNoteInstant(vital.dateTime);
  if (takenAt === null) return hasText(vital.dateTime) ? vital.dateTime : "Time not recorded";
  const visitAt = parseNoteInstant(note.visitDate);
  return visitAt !== null && localDateOf(takenAt, display.zone) === localDateOf(visitAt, display.zone) ? `Taken ${formatTime(takenAt, display)}` : `Taken ${formatNoteDateTime(vital.dateTime, display)}`;
}

export function VitalsBody({ note }: SectionBodyProps) {
  const display = useTimeDisplay(note.facility.timezone);
  const vitals = note.soapNote.vitals;
  const rows = VITAL_ROWS.filter((row) => vitals.some((vital) => row.value(vital, note) !== null));
  return (
    <table className="w-full border-collapse text-left text-sm sm:w-auto sm:min-w-[28rem]">
      <caption className="sr-only">Vitals, one column per set of readings, with units</caption>
      <thead>
        <tr className="border-b border-slate-300">
          <th scope="col" className="py-1.5 pr-3 font-medium text-slate-700">
            Measure
          </th>
          {vitals.map((vital, index) => (
            <th key={`${index}-${vital.dateTime}`} scope="col" className="py-1.5 pr-3 font-medium text-slate-700">
              {vitalColumnLabel(vital, note, display)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} className="border-b border-slate-200 last:border-b-0">
            <th scope="row" className="py-1.5 pr-3 align-top font-medium text-slate-700">
              {row.label}
            </th>
            {vitals.map((vital, index) => {
              const value = row.value(vital, note);
              return (
                <td key={`${index}-${vital.dateTime}`} className="py-1.5 pr-3 align-top tabular-nums text-slate-900">
                  {value ?? <NotRecorded />}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function quantityText(item: SoapNote["rx"][number]): string | null {
  if (!hasText(item.quantity)) return null;
  return hasText(item.quantityQualifier) ? `${item.quantity.trim()} ${item.quantityQualifier.trim()}` : item.quantity.trim();
}

function countText(value: string | null, one: string, many: string): string | null {
  if (!hasText(value)) return null;
  const trimmed = value.trim();
  return trimmed === "1" ? `1 ${one}` : /^\d+$/.test(trimmed) ? `${trimmed} ${many}` : trimmed;
}

export function RxBody({ note, sectionId }: SectionBodyProps) {
  const display = useTimeDisplay(note.facility.timezone);
  const items = note.soapNote.rx.filter((item) => hasText(item.drugName) || hasText(item.sig));
  return (
    <ul className="space-y-3">
      {items.map((item, index) => (
        <li key={`${index}-${item.drugName}`} className="space-y-1.5 rounded-lg border border-slate-200 p-3">
          <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
            <h3 id={`${sectionId}-item-${index}`} className="text-sm font-semibold text-slate-900">
              {hasText(item.drugName) ? item.drugName : "Unnamed drug"}
            </h3>
            {hasText(item.status) ? <TextBadge>{readableValue(item.status)}</TextBadge> : null}
          </div>
          <FieldList
            fields={[
              { label: "Directions", value: textOrNull(item.sig) },
              { label: "Quantity", value: quantityText(item) },
              { label: "Days supply", value: countText(item.daysSupply, "day", "days") },
              { label: "Refills", value: item.refills?.trim() === "0" ? "None" : countText(item.refills, "refill", "refills") },
              { label: "Starts", value: hasText(item.startDateUtc) ? formatNoteDate(item.startDateUtc, display) : null },
              { label: "Ends", value: hasText(item.endDateUtc) ? formatNoteDate(item.endDateUtc, display) : null },
              { label: "Diagnosis", value: textOrNull(item.diagnosis) },
            ]}
          />
        </li>
      ))}
    </ul>
  );
}

export function TestsBody({ note, sectionId }: SectionBodyProps) {
  const display = useTimeDisplay(note.facility.timezone);
  const tests = note.soapNote.tests.filter((test) => [test.procedureTest, test.testType, test.subType, test.result, test.plan].some(hasText));
  return (
    <ul className="space-y-3">
      {tests.map((test, index) => {
        const kind = [test.testType, test.subType].filter(hasText).join(" · ");
        const problems = test.problems.map((problem) => problem.name).filter(hasText);
        return (
          <li key={`${index}-${test.procedureTest ?? ""}`} className="space-y-1.5 rounded-lg border border-slate-200 p-3">
            <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
              <h3 id={`${sectionId}-item-${index}`} className="text-sm font-semibold text-slate-900">
                {textOrNull(test.procedureTest) ?? textOrNull(test.testType) ?? "Test"}
              </h3>
              {hasText(test.status) ? <TextBadge>{readableValue(test.status)}</TextBadge> : null}
              <TextBadge tone={test.completed ? "success" : "neutral"}>{test.completed ? "Completed" : "Not completed"}</TextBadge>
            </div>
            <FieldList
              fields={[
                { label: "Type", value: kind || null },
                { label: "Date", value: hasText(test.testDate) ? formatNoteDate(test.testDate, display) : null },
                { label: "Location", value: textOrNull(test.location) },
                { label: "Biopsy label", value: textOrNull(test.biopsyLabelNumber) },
                { label: "Result", value: textOrNull(test.result) ?? (test.completed ? <NotRecorded /> : <NotRecorded>Awaiting result</NotRecorded>) },
                { label: "Plan", value: textOrNull(test.plan) },
                { label: "ICD-10 codes", value: test.icdCodes.some(hasText) ? <CodeList codes={test.icdCodes} /> : null },
                { label: "Problems", value: problems.length > 0 ? problems.join("; ") : null },
              ]}
            />
          </li>
        );
      })}
    </ul>
  );
}

export function ClinicalNotesBody({ note }: SectionBodyProps) {
  const notes = note.soapNote.clinicalNotes.filter((item) => hasText(item.description));
  return <FieldList fields={notes.map((item, index) => ({ label: hasText(item.type) ? item.type.trim() : `Note ${index + 1}`, value: textOrNull(item.description) }))} />;
}

export function AttachmentsBody({ note }: SectionBodyProps) {
  // The service gives an attachment only the EHR's internal file id: no name,
  // type or date to call it by, and the id means nothing to a clinician.
  const count = note.soapNote.attachments.filter((item) => hasText(item.integrationFileId)).length;
  return (
    <p className="text-sm text-slate-700">
      {count === 1 ? "1 file is" : `${count} files are`} attached to this note in the EHR; Tandem is not given {count === 1 ? "its name" : "their names"}. Open the note in the EHR to view{" "}
      {count === 1 ? "it" : "them"}.
    </p>
  );
}

export function StickyNoteBody({ note, renderWritableField }: SectionBodyProps) {
  const author = peopleOf(note).mention(note.soapNote.stickyNote.createdByIntegrationUserId);
  return (
    <div className="space-y-2">
      {author ? <p className="text-sm text-slate-700">Left by {author}</p> : null}
      <WritableSlot field="stickyNoteDescription" render={renderWritableField} />
    </div>
  );
}
