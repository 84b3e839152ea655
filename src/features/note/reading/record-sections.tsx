import type { SoapNote } from "#contract/clinic-api/note.ts";
import type { SectionBodyProps } from "./clinical-sections.tsx";
import { billingLineTotal, billingTotal, formatAmount, formatMinutes, formatNumber, formatNoteTimeRange, hasText, parseNoteInstant, readableValue } from "./note-format.ts";
import { useTimeDisplay } from "#src/lib/use-time-display.tsx";
import { careTeamMemberName, peopleOf, UNNAMED_EHR_USER_LABEL, type PeopleDirectory } from "./people.ts";
import { Code, CodeList, FieldList, LineList, NotRecorded, Subheading, TextBadge, TextBlock, textOrNull } from "./reading-parts.tsx";

// The administrative and record-keeping sections of the note, read-only:
// billing, appointments, MIPS, counseling, history, care team, follow-up,
// time spent, E/M billing and addenda. Appointment times are the facility's.

type BillingLine = SoapNote["billing"][number];

function diagnosisText(code: BillingLine["diagnosisCodes"][number]): string | null {
  const codes = [hasText(code.icd10) ? code.icd10.trim() : null, hasText(code.icd9) ? `ICD-9 ${code.icd9.trim()}` : null].filter((part): part is string => part !== null);
  const head = codes.length > 0 ? codes.join(", ") : null;
  if (head && hasText(code.description)) return `${head}: ${code.description.trim()}`;
  return head ?? textOrNull(code.description);
}

export function BillingBody({ note }: SectionBodyProps) {
  const lines = note.soapNote.billing;
  const cell = "py-1.5 pr-3 align-top";
  const number = `${cell} whitespace-nowrap text-right tabular-nums`;
  return (
    <table className="w-full border-collapse text-left text-sm">
      <caption className="sr-only">Billing lines with units and amounts; the EHR does not state the currency</caption>
      <thead>
        <tr className="border-b border-slate-300 text-slate-700">
          <th scope="col" className={`${cell} font-medium`}>
            Procedure
          </th>
          <th scope="col" className={`${number} font-medium`}>
            Units
          </th>
          <th scope="col" className={`${number} font-medium`}>
            Unit price
          </th>
          <th scope="col" className={`${number} pr-0 font-medium`}>
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line, index) => {
          const diagnoses = line.diagnosisCodes.map(diagnosisText).filter((text): text is string => text !== null);
          const modifiers = line.modifiers.filter(hasText);
          return (
            <tr key={`${index}-${line.procedureCode}`} className="border-b border-slate-200">
              <th scope="row" className={`${cell} font-normal`}>
                <span className="font-semibold">
                  <Code>{hasText(line.procedureCode) ? line.procedureCode : "No code"}</Code>
                </span>
                {modifiers.length > 0 ? (
                  <span className="text-slate-700">
                    {" "}
                    modifier{modifiers.length === 1 ? "" : "s"} <CodeList codes={modifiers} />
                  </span>
                ) : null}
                {hasText(line.description) ? <span className="block text-slate-900">{line.description}</span> : null}
                {hasText(line.chargeType) ? <span className="block text-xs text-slate-600">{readableValue(line.chargeType)} charge</span> : null}
                {diagnoses.length > 0 ? (
                  <span className="block text-xs text-slate-700">
                    Diagnoses: {diagnoses.join("; ")}
                  </span>
                ) : null}
              </th>
              <td className={number}>{formatNumber(line.units)}</td>
              <td className={number}>{formatAmount(line.unitPrice)}</td>
              <td className={`${number} pr-0`}>{formatAmount(billingLineTotal(line))}</td>
            </tr>
          );
        })}
      </tbody>
      <tfoot>
        <tr className="font-semibold">
          <th scope="row" colSpan={3} className={`${cell} text-right`}>
            Total
          </th>
          <td className={`${number} pr-0`}>{formatAmount(billingTotal(lines))}</td>
        </tr>
      </tfoot>
    </table>
  );
}

export function AppointmentsBody({ note, sectionId }: SectionBodyProps) {
  const display = useTimeDisplay(note.facility.timezone);
  return (
    <ul className="space-y-3">
      {note.soapNote.appointments.map((appointment, index) => {
        const start = parseNoteInstant(appointment.scheduledStartDate);
        const end = parseNoteInstant(appointment.scheduledEndDate);
        const type = appointment.appointmentType;
        const when = start !== null && end !== null ? formatNoteTimeRange(start, end, display) : [appointment.scheduledStartDate, appointment.scheduledEndDate].filter(hasText).join(" to ");
        return (
          <li key={`${index}-${appointment.scheduledStartDate}`} className="space-y-1.5 rounded-lg border border-slate-200 p-3">
            <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
              <h3 id={`${sectionId}-item-${index}`} className="text-sm font-semibold text-slate-900">
                {hasText(type.name) ? type.name : "Appointment"}
                {hasText(type.abbreviation) ? <span className="font-normal text-slate-700"> ({type.abbreviation})</span> : null}
              </h3>
              {hasText(appointment.status) ? <TextBadge>{readableValue(appointment.status)}</TextBadge> : null}
            </div>
            <FieldList
              fields={[
                { label: "When", value: when || null },
                { label: "Length", value: formatMinutes(appointment.scheduledDuration) },
                { label: "Reason", value: textOrNull(appointment.reason) },
                { label: "Provider", value: peopleOf(note).label(appointment.providerIntegrationUserId) },
                { label: "Facility", value: textOrNull(appointment.facility) },
              ]}
            />
          </li>
        );
      })}
    </ul>
  );
}

export function MipsBody({ note }: SectionBodyProps) {
  const measures = note.soapNote.mips.filter((item) => hasText(item.title) || hasText(item.content));
  return (
    <ul className="space-y-2">
      {measures.map((measure, index) => (
        <li key={`${index}-${measure.number}`} className="text-sm">
          <p className="font-medium text-slate-900">
            <span className="text-slate-700">Measure {measure.number}: </span>
            {hasText(measure.title) ? measure.title : "Untitled measure"}
          </p>
          <TextBlock text={measure.content} />
        </li>
      ))}
    </ul>
  );
}

export function CounselingBody({ note }: SectionBodyProps) {
  const items = note.soapNote.counseling.filter((item) => hasText(item.title) || hasText(item.content));
  return <FieldList fields={items.map((item, index) => ({ label: hasText(item.title) ? item.title.trim() : `Counseling ${index + 1}`, value: textOrNull(item.content) ?? <NotRecorded>No details</NotRecorded> }))} />;
}

export function HistoryBody({ note, sectionId }: SectionBodyProps) {
  const items = note.soapNote.history.filter((item) => hasText(item.title) || item.content.some(hasText));
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      {items.map((item, index) => (
        <div key={`${index}-${item.title}`} className="space-y-1">
          <Subheading id={`${sectionId}-item-${index}`}>{hasText(item.title) ? item.title : "History"}</Subheading>
          {item.content.some(hasText) ? (
            <LineList lines={item.content} />
          ) : (
            <p className="text-sm">
              <NotRecorded>None recorded</NotRecorded>
            </p>
          )}
        </div>
      ))}
    </div>
  );
}

type CareTeamMember = NonNullable<SoapNote["careTeam"]["physician"]>;

function memberName(member: CareTeamMember, people: PeopleDirectory): string {
  return careTeamMemberName(member) ?? people.label(member.id) ?? UNNAMED_EHR_USER_LABEL;
}

export function CareTeamBody({ note }: SectionBodyProps) {
  const { physician, primaryBiller, attendees } = note.soapNote.careTeam;
  const people = peopleOf(note);
  const attendeeNames = attendees.map((attendee) => memberName(attendee.staff, people));
  return (
    <FieldList
      fields={[
        { label: "Physician", value: physician ? memberName(physician, people) : <NotRecorded>Not assigned</NotRecorded> },
        { label: "Primary biller", value: primaryBiller ? memberName(primaryBiller, people) : <NotRecorded>Not assigned</NotRecorded> },
        { label: "Attendees", value: attendeeNames.length > 0 ? <LineList lines={attendeeNames} /> : <NotRecorded>None</NotRecorded> },
      ]}
    />
  );
}

export function FollowUpBody({ note }: SectionBodyProps) {
  const lines = note.soapNote.followUp.map((item) => item.description).filter(hasText);
  if (lines.length === 1) return <TextBlock text={lines[0]} />;
  return <LineList lines={lines} />;
}

export function TimeSpentBody({ note }: SectionBodyProps) {
  const { minutes, activities, attestation } = note.soapNote.timeSpent;
  return (
    <FieldList
      fields={[
        { label: "Total time", value: minutes === null ? <NotRecorded /> : formatMinutes(minutes) },
        { label: "Activities", value: activities.some(hasText) ? <LineList lines={activities} /> : null },
        { label: "Attestation", value: textOrNull(attestation) },
      ]}
    />
  );
}

export function EmBillingBody({ note }: SectionBodyProps) {
  const { patientStatusLabel, billAsNewPatient, overrideEmCode } = note.soapNote.emBilling;
  return (
    <FieldList
      fields={[
        { label: "Patient status", value: textOrNull(patientStatusLabel) ?? <NotRecorded /> },
        { label: "Bill as new patient", value: billAsNewPatient ? "Yes" : "No" },
        { label: "E/M code override", value: hasText(overrideEmCode) ? <Code>{overrideEmCode}</Code> : "None" },
      ]}
    />
  );
}

export function AddendaBody({ note }: SectionBodyProps) {
  const addenda = note.soapNote.addenda.filter((item) => hasText(item.note) || hasText(item.signature));
  return (
    <ol className="space-y-2">
      {addenda.map((addendum, index) => (
        <li key={`${index}-${addendum.note}`} className="rounded-lg border border-slate-200 p-3 text-sm">
          <p className="text-xs font-medium text-slate-700">Addendum {index + 1}</p>
          <TextBlock text={addendum.note} />
          <p className="mt-1 text-xs text-slate-700">{hasText(addendum.signature) ? addendum.signature : <NotRecorded>Not signed</NotRecorded>}</p>
        </li>
      ))}
    </ol>
  );
}
