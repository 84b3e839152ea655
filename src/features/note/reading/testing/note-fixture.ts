import * as z from "zod/mini";
import { note as noteSchema, type Note, type SoapNote } from "#contract/clinic-api/note.ts";

// A complete, realistic SOAP note for tests: a dermatology visit in New York
// (kind A units: °F, lb, in) awaiting signature, with an atypical mole
// biopsied. Every section is filled except the addenda, as on a real note
// awaiting signature; `buildSignedNoteFixture` adds them. Shaped like the
// emulator's seeded notes and checked against the contract schema.

export interface NoteFixtureOverrides extends Partial<Omit<Note, "soapNote">> {
  /** Merged over the fixture's sections, one level deep. */
  soapNote?: Partial<SoapNote>;
}

const physician = { id: "21437", fullName: "Maria Chen, MD", firstName: "Maria", lastName: "Chen", username: "mchen" };
const assistant = { id: "21471", fullName: "Daniel Ortiz", firstName: "Daniel", lastName: "Ortiz", username: "dortiz" };

/** The sections of a note no one has written yet: every array empty, every text blank or null. */
export function emptySoapNoteFixture(): SoapNote {
  return {
    hpi: { historicalSummary: null, chiefComplaints: [], secondaryComplaints: [], additionalHpiComments: "", independentHistorian: null, ros: null },
    exam: { documentedExams: [], otherExamComments: "" },
    impressionsPlans: [],
    impressionsPlansComments: "",
    dataReviewed: null,
    vitals: [],
    rx: [],
    tests: [],
    clinicalNotes: [],
    attachments: [],
    stickyNote: { description: "", createdByIntegrationUserId: null },
    billing: [],
    appointments: [],
    mips: [],
    counseling: [],
    history: [],
    careTeam: { physician: null, primaryBiller: null, attendees: [] },
    followUp: [],
    timeSpent: { minutes: null, activities: [], attestation: null },
    emBilling: { patientStatusLabel: null, billAsNewPatient: false, overrideEmCode: null },
    addenda: [],
  };
}

function fullSoapNote(): SoapNote {
  return {
    hpi: {
      historicalSummary: "Jane is a 58-year-old woman with many nevi and a family history of melanoma.",
      chiefComplaints: [
        {
          title: "Changing mole",
          description: "Jane's partner noticed that a mole on the upper back has grown and darkened over the last 6 months.",
          impressionId: 482_310,
        },
      ],
      secondaryComplaints: [{ title: "Full skin exam", description: "Requests a full body skin examination; family history of melanoma in a parent.", impressionId: 482_311 }],
      additionalHpiComments: "Patient is accompanied by a family member.",
      independentHistorian: null,
      ros: "Negative for bleeding, itching or pain of the lesion. No weight loss.",
    },
    exam: {
      documentedExams: [
        { title: "Constitutional", description: "Well-appearing, well-nourished, in no acute distress." },
        { title: "Full body skin exam", description: "Scalp, face, neck, chest, abdomen, back, arms, legs, hands and feet examined. Multiple benign-appearing nevi." },
        { title: "Back", description: "7 mm irregularly pigmented macule with asymmetric borders on the left upper back; dermoscopy with atypical network." },
      ],
      otherExamComments: "Exam performed with dermatoscope.",
    },
    impressionsPlans: [
      {
        name: "Neoplasm of uncertain behavior of skin",
        summary: "Atypical pigmented lesion, left upper back; rule out melanoma.",
        morphology: "Irregularly pigmented macule",
        dxComplexity: "Undiagnosed new problem with uncertain prognosis",
        dxComplexityIsEhrDefault: false,
        dxStatus: "New",
        diagnosisCodes: ["D48.5"],
        bodyLocations: ["Left upper back"],
        overrideNote: null,
        isNew: true,
        isRuleout: true,
        associatedDx: null,
        causeDx: null,
        ddx: "Dysplastic nevus; melanoma in situ; seborrheic keratosis",
        plans: [
          {
            title: "Shave biopsy",
            location: "Left upper back",
            fullText: "Deep shave (saucerization) biopsy after informed consent; 1% lidocaine with epinephrine; hemostasis with aluminum chloride. Specimen A to dermatopathology.",
            impressionId: 482_310,
          },
          { title: "Wound care", location: null, fullText: "Petrolatum and a bandage daily until healed.", impressionId: 482_310 },
        ],
        assessments: [{ name: "Dermoscopy", value: "Atypical network, blue-gray structures" }],
        impressionId: 482_310,
      },
      {
        name: "Melanocytic nevi of trunk",
        summary: "Multiple benign-appearing nevi.",
        morphology: "Uniform brown macules",
        dxComplexity: "Stable chronic illness",
        dxComplexityIsEhrDefault: true,
        dxStatus: "Stable",
        diagnosisCodes: ["D22.5"],
        bodyLocations: ["Trunk"],
        overrideNote: null,
        isNew: false,
        isRuleout: false,
        associatedDx: null,
        causeDx: null,
        ddx: null,
        plans: [{ title: "Monitoring", location: null, fullText: "Monthly self skin checks; total body photography offered.", impressionId: 482_311 }],
        assessments: [],
        impressionId: 482_311,
      },
    ],
    impressionsPlansComments: "Risks, benefits and alternatives discussed; the patient agrees with the plan.",
    dataReviewed: "Prior dermatopathology report (2023) reviewed: mildly dysplastic nevus, right shoulder.",
    vitals: [
      {
        dateTime: "2026-11-20 14:11:00.000000+00",
        takenByIntegrationUserId: assistant.id,
        temperature: 98.2,
        temperatureType: "F",
        pulse: 72,
        bpSystolic: 124,
        bpDiastolic: 78,
        bpPosition: "Sitting",
        respiration: 14,
        oxygenSaturation: 98,
        fio2: 21,
        fio2Device: "Room air",
        weight: 154.3,
        weightType: "lbs",
        height: 65.4,
        heightType: "in",
        bmi: 25.4,
        bsa: "1.78",
      },
    ],
    rx: [
      {
        drugName: "Mupirocin 2% ointment",
        sig: "Apply to biopsy site twice daily until healed",
        status: "active",
        startDateUtc: "2026-11-20T14:05:00.000Z",
        endDateUtc: "2026-11-30T14:05:00.000Z",
        diagnosis: "D48.5 - Neoplasm of uncertain behavior of skin",
        quantity: "22",
        quantityQualifier: "gram",
        daysSupply: "10",
        refills: "0",
      },
    ],
    tests: [
      {
        testDate: "2026-11-20",
        testType: "Pathology",
        procedureTest: "Shave biopsy, dermatopathology",
        location: "Left upper back",
        result: null,
        status: "ordered",
        completed: false,
        plan: "Will call the patient with results.",
        subType: "Dermatopathology",
        biopsyLabelNumber: "A",
        icdCodes: ["D48.5", "D22.5"],
        problems: [{ name: "Neoplasm of uncertain behavior of skin" }, { name: "Melanocytic nevi of trunk" }],
      },
    ],
    clinicalNotes: [
      { type: "Patient Instructions", description: "Keep the biopsy site clean and covered. We will call you with the pathology result." },
      {
        type: "Procedure Note",
        description: "Deep shave (saucerization) biopsy after informed consent; 1% lidocaine with epinephrine; hemostasis with aluminum chloride. Specimen A to dermatopathology.",
      },
    ],
    attachments: [{ integrationFileId: "604218" }],
    stickyNote: { description: "Call the daughter (health care proxy) with results.", createdByIntegrationUserId: "21455" },
    billing: [
      {
        procedureCode: "99213",
        modifiers: ["25"],
        description: "Office/outpatient visit, established patient, low MDM",
        diagnosisCodes: [
          { icd9: "238.2", icd10: "D48.5", description: "Neoplasm of uncertain behavior of skin" },
          { icd9: "216.5", icd10: "D22.5", description: "Melanocytic nevi of trunk" },
        ],
        units: 1,
        unitPrice: 92,
        chargeType: "professional",
      },
      {
        procedureCode: "11102",
        modifiers: [],
        description: "Tangential biopsy of skin; single lesion",
        diagnosisCodes: [{ icd9: "238.2", icd10: "D48.5", description: "Neoplasm of uncertain behavior of skin" }],
        units: 1,
        unitPrice: 105,
        chargeType: "professional",
      },
    ],
    appointments: [
      {
        reason: "Changing mole on back",
        scheduledStartDate: "2026-11-20 14:00:00.000000+00",
        scheduledEndDate: "2026-11-20 14:20:00.000000+00",
        scheduledDuration: 20,
        status: "completed",
        appointmentType: { name: "Full Body Skin Exam", abbreviation: "FBSE" },
        providerIntegrationUserId: physician.id,
        facility: "Riverside Dermatology",
      },
    ],
    mips: [
      { number: 137, title: "Melanoma: Continuity of Care - Recall System", content: "Patient entered into the recall system for a 12-month skin examination." },
      { number: 440, title: "Skin Cancer: Biopsy Reporting Time - Pathologist to Clinician", content: "Pathology report received within 7 days of biopsy." },
      { number: 130, title: "Documentation of Current Medications in the Medical Record", content: "Current medications documented, reviewed and reconciled." },
    ],
    counseling: [{ title: "ABCDEs of melanoma", content: "Reviewed asymmetry, border, color, diameter and evolution; monthly self-exams." }],
    history: [
      { title: "Past Medical History", content: ["Dysplastic nevi"] },
      { title: "Medications", content: ["Mupirocin 2% ointment"] },
      { title: "Allergies", content: ["Penicillin (hives)"] },
      { title: "Social History", content: ["Never smoker. Drinks 1-2 glasses of wine per week. Works as a teacher."] },
      { title: "Family History", content: ["Father: melanoma at 58. Mother: healthy."] },
      { title: "Surgical History", content: ["Appendectomy (2009)"] },
    ],
    careTeam: { physician, primaryBiller: physician, attendees: [{ id: Number(assistant.id), staff: assistant }] },
    followUp: [{ description: "Pathology results in 7-10 days; return in 2 weeks for a wound check and results." }],
    timeSpent: {
      minutes: 29,
      activities: ["Reviewing prior records", "Face-to-face evaluation", "Counseling and education", "Ordering tests and medications", "Documentation"],
      attestation: "I personally spent 29 minutes on the date of the encounter, including the activities listed.",
    },
    emBilling: { patientStatusLabel: "Established patient", billAsNewPatient: false, overrideEmCode: null },
    addenda: [],
  };
}

function baseNote(): Note {
  return {
    id: "6f1d2c3b-8a4e-4f5a-9b6c-7d8e9f0a1b2c",
    version: 4,
    visitDate: "2026-11-20 14:00:00.000000+00",
    status: "awaiting_sign",
    aiStatus: "issues_found",
    aiIssueCount: 3,
    patient: {
      id: "0b7e4a52-3c1d-4e8f-a6b9-2d5c8e1f7a34",
      mrn: "00412387",
      firstName: "Jane",
      middleName: "Elizabeth",
      lastName: "Doe",
      gender: "female",
      dateOfBirth: "1968-03-14",
      email: "jane.doe@example.com",
      phone: "(212) 555-0147",
      createdAt: "2021-06-02T15:24:11.000Z",
      updatedAt: "2026-10-30T18:02:45.000Z",
      avatar: "http://127.0.0.1:4010/_sandbox/avatars/0b7e4a52-3c1d-4e8f-a6b9-2d5c8e1f7a34.svg",
    },
    facility: {
      id: "9c2b7e10-5d4f-4a3b-8e1c-6f7a8b9c0d1e",
      name: "Riverside Dermatology",
      timezone: "America/New_York",
      specialty: "Dermatology",
      isVisible: true,
      organizationNpi: "1234567893",
      createdAt: "2019-01-15T14:00:00.000Z",
      updatedAt: "2026-09-01T12:30:00.000Z",
    },
    ehrType: "kind_a",
    assignedProviders: [
      {
        id: "3e5f7a9b-1c2d-4e6f-8a0b-c1d2e3f4a5b6",
        firstName: "Maria",
        lastName: "Chen",
        displayFirstName: "Dr. Maria",
        displayLastName: "Chen, MD",
        roles: ["Physician"],
        individualNpi: "1538296470",
        username: "mchen",
        canFinalize: true,
        canCosign: true,
        hidden: false,
        roleType: "PROVIDER",
        createdAt: "2020-03-09 13:15:00.000000+00",
        updatedAt: "2026-08-12 16:40:00.000000+00",
      },
    ],
    createdAt: "2026-11-20 13:52:00.000000+00",
    updatedAt: "2026-11-20 16:47:00.000000+00",
    soapNote: fullSoapNote(),
  };
}

/** A full valid note; `overrides` replace top-level fields and, under `soapNote`, whole sections. Throws if the result breaks the contract. */
export function buildNoteFixture(overrides: NoteFixtureOverrides = {}): Note {
  const base = baseNote();
  const { soapNote: soapOverrides, ...top } = overrides;
  return z.parse(noteSchema, { ...base, ...top, soapNote: { ...base.soapNote, ...soapOverrides } });
}

/** The same visit after signing, with two addenda. */
export function buildSignedNoteFixture(overrides: NoteFixtureOverrides = {}): Note {
  const { soapNote: soapOverrides, ...top } = overrides;
  return buildNoteFixture({
    status: "signed",
    version: 6,
    aiStatus: "no_issues",
    aiIssueCount: 0,
    updatedAt: "2026-11-23 15:20:00.000000+00",
    ...top,
    soapNote: {
      addenda: [
        { note: "Pathology reviewed with the patient by phone; plan unchanged.", signature: "Electronically signed by Maria Chen, MD on 2026-11-23 15:18 UTC" },
        { note: "Corrected medication dose in the plan after pharmacy call.", signature: null },
      ],
      ...soapOverrides,
    },
  });
}
