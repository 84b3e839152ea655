import * as z from "zod/mini";
import { imageId, rawUuid, textTimestamp } from "./primitives.ts";
import { noteFacility, notePatient, noteProvider, taskProvider } from "./people.ts";

// Seed 000 "Note (SOAP note)", "Note image", "Task"; seed 001 "Notes", "Tasks".
// The seeds type most section fields as plain strings without saying which may
// be empty; free-text fields the EHR may lack are nullable here.

const text = z.nullable(z.string());
const num = z.nullable(z.number());

const complaint = z.object({ title: z.string(), description: text, impressionId: z.nullable(z.int()) });

const hpi = z.object({
  historicalSummary: text,
  chiefComplaints: z.array(complaint),
  secondaryComplaints: z.array(complaint),
  additionalHpiComments: z.string(),
  independentHistorian: text,
  ros: text,
});

const exam = z.object({
  documentedExams: z.array(z.object({ title: z.string(), description: text })),
  otherExamComments: z.string(),
});

const impressionPlan = z.object({
  name: z.string(),
  summary: text,
  morphology: text,
  dxComplexity: text,
  dxComplexityIsEhrDefault: z.boolean(),
  dxStatus: text,
  diagnosisCodes: z.array(z.string()),
  bodyLocations: z.array(z.string()),
  overrideNote: text,
  isNew: z.boolean(),
  isRuleout: z.boolean(),
  associatedDx: text,
  causeDx: text,
  ddx: text,
  plans: z.array(z.object({ title: z.string(), location: text, fullText: text, impressionId: z.nullable(z.int()) })),
  assessments: z.array(z.object({ name: z.string(), value: text })),
  impressionId: z.int(),
});

const vital = z.object({
  dateTime: z.string(),
  takenByIntegrationUserId: text,
  temperature: num,
  temperatureType: text,
  pulse: num,
  bpSystolic: num,
  bpDiastolic: num,
  bpPosition: text,
  respiration: num,
  oxygenSaturation: num,
  fio2: num,
  fio2Device: text,
  weight: num,
  weightType: text,
  height: num,
  heightType: text,
  bmi: num,
  bsa: text,
});

const prescription = z.object({
  drugName: z.string(),
  sig: text,
  status: text,
  startDateUtc: text,
  endDateUtc: text,
  diagnosis: text,
  quantity: text,
  quantityQualifier: text,
  daysSupply: text,
  refills: text,
});

const test = z.object({
  testDate: text,
  testType: text,
  procedureTest: text,
  location: text,
  result: text,
  status: text,
  completed: z.boolean(),
  plan: text,
  subType: text,
  biopsyLabelNumber: text,
  icdCodes: z.array(z.string()),
  problems: z.array(z.object({ name: z.string() })),
});

const careTeamMember = z.object({
  id: z.string(),
  fullName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  username: z.string(),
});

export const soapNote = z.object({
  hpi,
  exam,
  impressionsPlans: z.array(impressionPlan),
  impressionsPlansComments: z.string(),
  dataReviewed: text,
  vitals: z.array(vital),
  rx: z.array(prescription),
  tests: z.array(test),
  clinicalNotes: z.array(z.object({ type: z.string(), description: text })),
  attachments: z.array(z.object({ integrationFileId: z.string() })),
  stickyNote: z.object({ description: z.string(), createdByIntegrationUserId: text }),
  billing: z.array(
    z.object({
      procedureCode: z.string(),
      modifiers: z.array(z.string()),
      description: text,
      diagnosisCodes: z.array(z.object({ icd9: text, icd10: text, description: text })),
      units: z.number(),
      unitPrice: z.number(),
      chargeType: text,
    }),
  ),
  appointments: z.array(
    z.object({
      reason: text,
      scheduledStartDate: z.string(),
      scheduledEndDate: z.string(),
      scheduledDuration: z.number(),
      status: z.string(),
      appointmentType: z.object({ name: z.string(), abbreviation: z.string() }),
      providerIntegrationUserId: text,
      facility: text,
    }),
  ),
  mips: z.array(z.object({ number: z.int(), title: z.string(), content: text })),
  counseling: z.array(z.object({ title: z.string(), content: text })),
  history: z.array(z.object({ title: z.string(), content: z.array(z.string()) })),
  careTeam: z.object({
    physician: z.nullable(careTeamMember),
    primaryBiller: z.nullable(careTeamMember),
    attendees: z.array(z.object({ id: z.int(), staff: careTeamMember })),
  }),
  followUp: z.array(z.object({ description: z.string() })),
  timeSpent: z.object({ minutes: z.nullable(z.number()), activities: z.array(z.string()), attestation: text }),
  emBilling: z.object({ patientStatusLabel: text, billAsNewPatient: z.boolean(), overrideEmCode: text }),
  addenda: z.array(z.object({ note: z.string(), signature: text })),
});
export type SoapNote = z.infer<typeof soapNote>;

/** Note statuses that appear: `awaiting_sign`; a signed note also exists and cannot be edited. */
export const SIGNED_NOTE_STATUS = "signed";

export const note = z.object({
  id: rawUuid,
  version: z.int(),
  visitDate: textTimestamp,
  status: z.string(),
  aiStatus: z.string(),
  aiIssueCount: z.int(),
  patient: notePatient,
  facility: noteFacility,
  ehrType: z.string(),
  assignedProviders: z.array(noteProvider),
  createdAt: textTimestamp,
  updatedAt: textTimestamp,
  soapNote,
});
export type Note = z.infer<typeof note>;

/** The four fields the service lets apps write (seed 001, PATCH /v1/notes/{noteId}). */
export const WRITABLE_NOTE_FIELDS = ["additionalHpiComments", "impressionsPlansComments", "otherExamComments", "stickyNoteDescription"] as const;
export type WritableNoteField = (typeof WRITABLE_NOTE_FIELDS)[number];

/** All optional; only the fields provided are changed. */
export const notePatchBody = z.strictObject({
  additionalHpiComments: z.optional(z.string()),
  impressionsPlansComments: z.optional(z.string()),
  otherExamComments: z.optional(z.string()),
  stickyNoteDescription: z.optional(z.string()),
});
export type NotePatchBody = z.infer<typeof notePatchBody>;

/** Reads the current value of a writable field from a note. */
export function readWritableField(note: Note, field: WritableNoteField): string {
  switch (field) {
    case "additionalHpiComments":
      return note.soapNote.hpi.additionalHpiComments;
    case "impressionsPlansComments":
      return note.soapNote.impressionsPlansComments;
    case "otherExamComments":
      return note.soapNote.exam.otherExamComments;
    case "stickyNoteDescription":
      return note.soapNote.stickyNote.description;
  }
}

/** All four writable fields of a note, by name. */
export function writableValues(note: Note): Record<WritableNoteField, string> {
  return {
    additionalHpiComments: readWritableField(note, "additionalHpiComments"),
    impressionsPlansComments: readWritableField(note, "impressionsPlansComments"),
    otherExamComments: readWritableField(note, "otherExamComments"),
    stickyNoteDescription: readWritableField(note, "stickyNoteDescription"),
  };
}

export const noteImage = z.object({
  id: imageId,
  fileName: z.string(),
  mimeType: z.string(),
  sizeKb: z.int(),
  /** `pending_upload` appears; the value space is open. */
  status: z.string(),
});
export type NoteImage = z.infer<typeof noteImage>;

export const task = z.object({
  id: z.string(),
  status: z.string(),
  syncStatus: z.string(),
  notes: z.string(),
  source: z.string(),
  ehrType: z.string(),
  assignedProviders: z.array(taskProvider),
  createdAt: textTimestamp,
  ehrCreatedAt: textTimestamp,
  updatedAt: textTimestamp,
  noteId: z.string(),
});
export type Task = z.infer<typeof task>;

/** Required-ness of noteId, providerId and notes is not shown; the service is taken to need all three. */
export const taskCreateBody = z.object({
  noteId: z.string().check(z.minLength(1)),
  providerId: z.string().check(z.minLength(1)),
  notes: z.string().check(z.minLength(1)),
  assigneeIds: z.array(z.string().check(z.minLength(1))).check(z.minLength(1, "needs at least one provider id")),
});
export type TaskCreateBody = z.infer<typeof taskCreateBody>;
