// SOAP notes of one organization: written for real visits (completed or
// arrived appointments of bookable clinicians), most awaiting signature,
// some signed, the latest still in progress.
import type { NoteImage, SoapNote } from "#contract/clinic-api/note.ts";
import type { Facility, NoteProvider } from "#contract/clinic-api/people.ts";
import type { AppointmentType } from "#contract/clinic-api/schedule.ts";
import { localDateOf } from "#contract/time/zoned-time.ts";
import type { EhrAppointment, EhrKind, EhrNote, EhrPatient, EhrProvider } from "../world/types.ts";
import {
  ADDENDUM_TEXTS,
  ALLERGIES,
  DIAGNOSES,
  DRUGS,
  emCode,
  FAMILY_HISTORY,
  LAB_TESTS,
  MIPS_MEASURES,
  NORMAL_EXAMS,
  PROCEDURES,
  renderText,
  SCENARIOS,
  SOCIAL_HISTORY,
  STICKY_NOTES,
  SURGICAL_HISTORY,
  type ClinicalScenario,
} from "./clinical-catalog.ts";
import { ageOn, MS_PER_DAY, MS_PER_MINUTE, textFromUtc, textTimestamp, utcTimestamp } from "./format.ts";
import { isBookableRole } from "./generate-people.ts";
import type { OrganizationPlan } from "./organization-plans.ts";
import type { Random } from "./random.ts";

export const NOTE_STATUSES = ["in_progress", "awaiting_sign", "signed"] as const;
export type NoteStatus = (typeof NOTE_STATUSES)[number];

/** `ehrType` of notes and tasks: names the EHR kind. */
export const EHR_TYPE_BY_KIND: Readonly<Record<EhrKind, string>> = { A: "kind_a", B: "kind_b" };

/** The AI review's outcome (`issues_found` appears in the seeds; the others are assumed). */
export const AI_STATUSES = { issuesFound: "issues_found", clean: "no_issues", pending: "pending" } as const;

export interface NoteContext {
  plan: OrganizationPlan;
  facilities: readonly Facility[];
  providers: readonly EhrProvider[];
  patients: readonly EhrPatient[];
  appointments: readonly EhrAppointment[];
  appointmentTypes: readonly AppointmentType[];
  scenarioKeyById: ReadonlyMap<string, string>;
  now: number;
}

interface NoteVisit {
  appointment: EhrAppointment;
  status: NoteStatus;
}

/** Which visits get notes and in which state: the latest still open, the oldest signed. */
function chooseVisits(random: Random, context: NoteContext): NoteVisit[] {
  const { providers, appointments, now, plan } = context;
  const clinicians = new Set(providers.filter((provider) => !provider.hidden && provider.roles.some(isBookableRole)).map((provider) => provider.id));
  const candidates = appointments
    .filter((appointment) => (appointment.status === "completed" || appointment.status === "arrived") && clinicians.has(appointment.providerId) && Date.parse(appointment.scheduledStartDate) <= now)
    .reverse();
  const total = Math.min(plan.noteCount, candidates.length);
  const quota: Record<NoteStatus, number> = { in_progress: Math.max(3, Math.round(total * 0.17)), signed: Math.max(3, Math.round(total * 0.28)), awaiting_sign: 0 };
  quota.awaiting_sign = Math.max(0, total - quota.in_progress - quota.signed);

  const used = new Set<string>();
  const picks: NoteVisit[] = [];
  // The first Physician gets one note in each state, so a test signed in as them sees all three.
  const first = providers[0];
  const own = candidates.filter((appointment) => appointment.providerId === first?.id);
  const forced: [EhrAppointment | undefined, NoteStatus][] = [
    [own[0], "in_progress"],
    [own[1], "awaiting_sign"],
    [own[2], "awaiting_sign"],
    [own[3], "awaiting_sign"],
    [own[Math.min(own.length - 1, 8)], "signed"],
  ];
  for (const [appointment, status] of forced) {
    if (appointment === undefined || used.has(appointment.id) || quota[status] === 0) continue;
    used.add(appointment.id);
    quota[status]--;
    picks.push({ appointment, status });
  }
  const rest: EhrAppointment[] = [];
  let remaining = quota.in_progress + quota.awaiting_sign + quota.signed;
  for (let pass = 0; pass < 4 && remaining > 0; pass++) {
    for (const appointment of candidates) {
      if (remaining === 0) break;
      if (used.has(appointment.id) || !random.chance(pass === 3 ? 1 : 0.3)) continue;
      used.add(appointment.id);
      rest.push(appointment);
      remaining--;
    }
  }
  rest.sort((a, b) => Date.parse(b.scheduledStartDate) - Date.parse(a.scheduledStartDate));
  for (const appointment of rest) {
    const status: NoteStatus = quota.in_progress > 0 ? "in_progress" : quota.awaiting_sign > 0 ? "awaiting_sign" : "signed";
    quota[status]--;
    picks.push({ appointment, status });
  }
  return picks;
}

export function generateNotes(random: Random, context: NoteContext): EhrNote[] {
  const { plan, facilities, providers, patients, appointmentTypes, scenarioKeyById, now } = context;
  const patientById = new Map(patients.map((patient) => [patient.id, patient]));
  const providerById = new Map(providers.map((provider) => [provider.id, provider]));
  const facilityById = new Map(facilities.map((facility, index) => [facility.id, { facility, practice: plan.facilities[index]?.practice ?? "primary" }] as const));
  const typeById = new Map(appointmentTypes.map((type) => [type.id, type]));
  const scenarioByKey = new Map(SCENARIOS.map((scenario) => [scenario.key, scenario]));
  const active = providers.filter((provider) => !provider.hidden);
  const assistants = active.filter((provider) => provider.roles.includes("Medical Assistant"));
  const physicians = active.filter((provider) => provider.roles.includes("Physician"));
  const frontDesk = active.filter((provider) => provider.roles.includes("Front Desk"));

  const notes: EhrNote[] = [];
  const withImages = new Set<NoteStatus>();
  let awaitingIndex = 0;
  for (const { appointment, status } of chooseVisits(random, context)) {
    const patient = patientById.get(appointment.patientId);
    const provider = providerById.get(appointment.providerId);
    const site = facilityById.get(appointment.facilityId);
    const type = typeById.get(appointment.appointmentTypeId);
    if (patient === undefined || provider === undefined || site === undefined || type === undefined) continue;
    const scenario =
      scenarioByKey.get(scenarioKeyById.get(appointment.id) ?? "") ??
      random.pick(SCENARIOS.filter((candidate) => candidate.practices.includes(site.practice)));
    const assistant = assistants.length > 0 ? random.pick(assistants) : null;
    const supervisor = provider.roles.includes("Physician") ? null : physicians.length > 0 ? random.pick(physicians) : null;
    const start = Date.parse(appointment.scheduledStartDate);
    const end = Date.parse(appointment.scheduledEndDate);
    const createdAt = Math.min(now, start - random.int(0, 15) * MS_PER_MINUTE);
    const updatedAt = Math.max(
      createdAt,
      Math.min(
        now,
        status === "in_progress"
          ? start + random.int(5, 60) * MS_PER_MINUTE
          : status === "awaiting_sign"
            ? end + random.int(10, 300) * MS_PER_MINUTE
            : end + random.int(60, 4 * 24 * 60) * MS_PER_MINUTE,
      ),
    );
    let aiStatus: string = AI_STATUSES.clean;
    let aiIssueCount = 0;
    if (status === "in_progress") aiStatus = AI_STATUSES.pending;
    if (status === "awaiting_sign" && awaitingIndex++ % 2 === 0) {
      aiStatus = AI_STATUSES.issuesFound;
      aiIssueCount = random.int(1, 4);
    }
    const imageCount = withImages.has(status) ? random.weighted([[0, 3], [1, 3], [2, 2], [3, 1]] as const) : random.int(1, 3);
    if (imageCount > 0) withImages.add(status);

    const soapNote = buildSoapNote(random, {
      kind: plan.kind,
      scenario,
      patient,
      provider,
      assistant,
      supervisor,
      stickyAuthor: frontDesk.length > 0 ? random.pick(frontDesk) : null,
      appointment,
      type,
      facility: site.facility,
      status,
      aiIssueCount,
      now,
      updatedAt,
    });
    notes.push({
      id: random.uuid(),
      version: status === "in_progress" ? random.int(1, 3) : status === "awaiting_sign" ? random.int(2, 6) : random.int(3, 9),
      visitDate: textTimestamp(start),
      status,
      aiStatus,
      aiIssueCount,
      patient: { ...patient },
      facility: noteFacility(site.facility),
      ehrType: EHR_TYPE_BY_KIND[plan.kind],
      assignedProviders: [provider, ...(supervisor === null ? [] : [supervisor])].map(noteProvider),
      createdAt: textTimestamp(createdAt),
      updatedAt: textTimestamp(updatedAt),
      soapNote,
      images: generateImages(random, imageCount, status, scenario),
    });
  }
  return notes;
}

/** Seed 000 "Conventions": only notes, tasks and their providers use database-style text; an embedded facility keeps ISO 8601, as the embedded patient does. */
function noteFacility(facility: Facility): EhrNote["facility"] {
  const { address: _address, ...rest } = facility;
  return rest;
}

export function noteProvider(provider: EhrProvider): NoteProvider {
  return {
    id: provider.id,
    firstName: provider.firstName,
    lastName: provider.lastName,
    displayFirstName: provider.displayFirstName,
    displayLastName: provider.displayLastName,
    roles: [...provider.roles],
    individualNpi: provider.individualNpi,
    username: provider.username,
    canFinalize: provider.canFinalize,
    canCosign: provider.canCosign,
    hidden: provider.hidden,
    roleType: provider.roleType,
    createdAt: textFromUtc(provider.createdAt),
    updatedAt: textFromUtc(provider.updatedAt),
  };
}

function generateImages(random: Random, count: number, status: NoteStatus, scenario: ClinicalScenario): NoteImage[] {
  const locations = scenario.impressions.flatMap((impression) => impression.bodyLocations);
  return Array.from({ length: count }, (_, index) => {
    const png = random.chance(0.3);
    const stem = locations.length > 0 ? `${random.pick(locations).toLowerCase().replaceAll(" ", "-")}-${random.pick(["clinical", "dermoscopy", "overview"])}-${index + 1}` : `IMG_${random.int(1000, 9999)}`;
    return {
      id: `img_${random.hex(32)}`,
      fileName: `${stem}.${png ? "png" : "jpg"}`,
      mimeType: png ? "image/png" : "image/jpeg",
      sizeKb: png ? random.int(120, 1800) : random.int(350, 4200),
      status: random.chance(status === "in_progress" ? 0.5 : 0.15) ? "pending_upload" : "uploaded",
    };
  });
}

interface SoapFacts {
  kind: EhrKind;
  scenario: ClinicalScenario;
  patient: EhrPatient;
  provider: EhrProvider;
  assistant: EhrProvider | null;
  supervisor: EhrProvider | null;
  stickyAuthor: EhrProvider | null;
  appointment: EhrAppointment;
  type: AppointmentType;
  facility: Facility;
  status: NoteStatus;
  aiIssueCount: number;
  now: number;
  updatedAt: number;
}

type CareTeamMember = NonNullable<SoapNote["careTeam"]["physician"]>;

function careTeamMember(provider: EhrProvider): CareTeamMember {
  return {
    id: provider.ehrUserId,
    fullName: `${provider.firstName} ${provider.lastName}${provider.title === "" || provider.title === provider.roles[0] ? "" : `, ${provider.title}`}`,
    firstName: provider.firstName,
    lastName: provider.lastName,
    username: provider.username,
  };
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

function buildVitals(random: Random, facts: SoapFacts, age: number, takenAt: number): SoapNote["vitals"][number] {
  const female = facts.patient.gender?.toLowerCase() === "female";
  const heightCm = age < 18 ? 85 + age * 5.6 + random.float(-5, 5) : female ? random.float(152, 175) : random.float(165, 192);
  const bmiTarget = age < 18 ? random.float(15, 23) : random.float(19.5, 35);
  const weightKg = bmiTarget * (heightCm / 100) ** 2;
  const hypertensive = facts.scenario.key === "hypertension";
  const common = {
    dateTime: textTimestamp(takenAt),
    takenByIntegrationUserId: (facts.assistant ?? facts.provider).ehrUserId,
    pulse: random.int(58, 96),
    bpSystolic: hypertensive ? random.int(132, 148) : random.int(104, 132),
    bpDiastolic: hypertensive ? random.int(82, 94) : random.int(64, 84),
    bpPosition: "Sitting",
    respiration: random.int(12, 18),
    oxygenSaturation: random.int(95, 100),
    ...(random.chance(0.7) ? { fio2: 21, fio2Device: "Room air" } : { fio2: null, fio2Device: null }),
  };
  // Every number is in the unit its *Type names; BMI and BSA follow from the rounded values.
  if (facts.kind === "A") {
    const weight = round1(weightKg * 2.204_62);
    const height = round1(heightCm / 2.54);
    return {
      ...common,
      temperature: round1(random.float(97.5, 99.1)),
      temperatureType: "F",
      weight,
      weightType: "lbs",
      height,
      heightType: "in",
      bmi: round1((703 * weight) / height ** 2),
      bsa: Math.sqrt((height * 2.54 * (weight / 2.204_62)) / 3600).toFixed(2),
    };
  }
  const weight = round1(weightKg);
  const height = round1(heightCm);
  return {
    ...common,
    temperature: round1(random.float(36.3, 37.3)),
    temperatureType: "C",
    weight,
    weightType: "kg",
    height,
    heightType: "cm",
    bmi: round1(weight / (height / 100) ** 2),
    bsa: Math.sqrt((height * weight) / 3600).toFixed(2),
  };
}

function buildSoapNote(random: Random, facts: SoapFacts): SoapNote {
  const { scenario, patient, provider, appointment, type, facility, status } = facts;
  const start = Date.parse(appointment.scheduledStartDate);
  const end = Date.parse(appointment.scheduledEndDate);
  const visitDate = localDateOf(start, facility.timezone);
  const age = patient.dateOfBirth === null ? 45 : ageOn(patient.dateOfBirth, visitDate);
  const gender = patient.gender?.toLowerCase();
  const adult = age >= 18;
  const person = gender === "female" ? (adult ? "woman" : "girl") : gender === "male" ? (adult ? "man" : "boy") : "patient";
  const they = gender === "female" ? "she" : gender === "male" ? "he" : "they";
  const their = gender === "female" ? "her" : gender === "male" ? "his" : "their";
  const text = (value: string): string => renderText(value, { first: patient.firstName, age, person, they, their });
  const draft = status === "in_progress";
  const telehealth = type.abbreviation === "TELE";

  const impressionBase = random.int(100_000, 900_000);
  const impressions = (draft ? scenario.impressions.slice(0, 1) : scenario.impressions).map((impression, index) => ({ impression, impressionId: impressionBase + index }));
  const firstImpressionId = impressions[0]?.impressionId ?? null;
  const allDx = [...new Set(impressions.flatMap(({ impression }) => impression.dx))];
  const dxLabel = (code: string): string => `${code} - ${DIAGNOSES[code]?.description ?? code}`;

  const billingDx = (codes: readonly string[]): SoapNote["billing"][number]["diagnosisCodes"] =>
    codes.map((code) => ({ icd9: DIAGNOSES[code]?.icd9 ?? null, icd10: code, description: DIAGNOSES[code]?.description ?? null }));
  const procedureLines = scenario.procedures.map((procedure) => ({
    procedureCode: procedure.code,
    modifiers: [...procedure.modifiers],
    description: PROCEDURES[procedure.code]?.description ?? null,
    diagnosisCodes: billingDx(procedure.dx),
    units: procedure.units,
    unitPrice: PROCEDURES[procedure.code]?.unitPrice ?? 0,
    chargeType: PROCEDURES[procedure.code]?.chargeType ?? null,
  }));
  const separateProcedure = scenario.procedures.some((procedure) => /^1[01]\d{3}$|^17\d{3}$/.test(procedure.code));
  const em = emCode(scenario.emLevel, appointment.isNewPatient, age);
  const emLine = {
    procedureCode: em,
    modifiers: [...(separateProcedure ? ["25"] : []), ...(telehealth ? ["95"] : [])],
    description: PROCEDURES[em]?.description ?? null,
    diagnosisCodes: billingDx(allDx),
    units: 1,
    unitPrice: PROCEDURES[em]?.unitPrice ?? 0,
    chargeType: "professional",
  };
  const resulted = status === "signed";
  const minutes = Math.round((end - start) / MS_PER_MINUTE) + random.int(3, 15);

  return {
    hpi: {
      historicalSummary: text(scenario.historicalSummary),
      chiefComplaints: [{ title: scenario.chiefComplaint.title, description: text(scenario.chiefComplaint.description), impressionId: firstImpressionId }],
      secondaryComplaints:
        scenario.secondaryComplaint === undefined ? [] : [{ title: scenario.secondaryComplaint.title, description: text(scenario.secondaryComplaint.description), impressionId: impressions[1]?.impressionId ?? firstImpressionId }],
      additionalHpiComments: random.chance(0.4) ? random.pick(["Outside records reviewed and scanned to the chart.", "Patient is accompanied by a family member.", "Symptoms discussed in detail; timeline confirmed with the patient.", `${telehealth ? "Visit conducted by secure video; patient at home." : "History obtained from the patient."}`]) : "",
      independentHistorian: adult ? null : "Parent",
      ros: text(scenario.ros),
    },
    exam: {
      documentedExams: telehealth
        ? [{ title: "General (video)", description: "Alert, conversant, in no distress on video. Exam limited by the telehealth format." }]
        : [...scenario.normalExams.flatMap((key) => (NORMAL_EXAMS[key] === undefined ? [] : [NORMAL_EXAMS[key]])), ...scenario.findings].map((exam) => ({ ...exam })),
      otherExamComments: random.chance(0.3) ? random.pick(["Chaperone present for the examination.", "Patient declined a full skin exam today.", "Exam performed with dermatoscope."]) : "",
    },
    impressionsPlans: impressions.map(({ impression, impressionId }) => ({
      name: impression.name,
      summary: impression.summary,
      morphology: impression.morphology,
      dxComplexity: impression.dxComplexity,
      dxComplexityIsEhrDefault: random.chance(0.6),
      dxStatus: impression.dxStatus,
      diagnosisCodes: [...impression.dx],
      bodyLocations: [...impression.bodyLocations],
      overrideNote: null,
      isNew: impression.isNew,
      isRuleout: impression.isRuleout ?? false,
      associatedDx: impression.associatedDx ?? null,
      causeDx: impression.causeDx ?? null,
      ddx: impression.ddx ?? null,
      plans: draft ? [] : impression.plans.map((plan) => ({ title: plan.title, location: plan.location ?? null, fullText: plan.fullText, impressionId })),
      assessments: impression.assessments.map((assessment) => ({ ...assessment })),
      impressionId,
    })),
    impressionsPlansComments: draft || random.chance(0.5) ? "" : "Risks, benefits and alternatives discussed; the patient agrees with the plan.",
    dataReviewed: scenario.dataReviewed,
    vitals: telehealth ? [] : [buildVitals(random, facts, age, start + random.int(2, 10) * MS_PER_MINUTE)],
    rx: scenario.drugs.flatMap((key) => {
      const drug = DRUGS[key];
      if (drug === undefined) return [];
      return [
        {
          drugName: drug.name,
          sig: drug.sig,
          status: draft ? "draft" : "active",
          startDateUtc: utcTimestamp(start),
          endDateUtc: utcTimestamp(start + drug.daysSupply * (drug.refills + 1) * MS_PER_DAY),
          diagnosis: allDx[0] === undefined ? null : dxLabel(allDx[0]),
          quantity: drug.quantity,
          quantityQualifier: drug.quantityQualifier,
          daysSupply: String(drug.daysSupply),
          refills: String(drug.refills),
        },
      ];
    }),
    tests: scenario.tests.flatMap((key, index) => {
      const test = LAB_TESTS[key];
      if (test === undefined) return [];
      const done = resulted || test.location === "In-house lab" || test.location === "In office";
      const pathology = test.testType === "Pathology";
      return [
        {
          testDate: visitDate,
          testType: test.testType,
          procedureTest: test.procedureTest,
          location: pathology ? (impressions[0]?.impression.bodyLocations[0] ?? test.location) : test.location,
          result: done ? test.result : null,
          status: done ? "resulted" : "ordered",
          completed: done,
          plan: done ? "Reviewed with the patient." : "Will call the patient with results.",
          subType: test.subType,
          biopsyLabelNumber: pathology ? String.fromCharCode(65 + index) : null,
          icdCodes: [...allDx],
          problems: impressions.map(({ impression }) => ({ name: impression.name })),
        },
      ];
    }),
    clinicalNotes: [
      { type: "Patient Instructions", description: scenario.patientInstructions },
      ...(scenario.procedures.some((procedure) => /^1[017]\d{3}$/.test(procedure.code)) && !draft
        ? [{ type: "Procedure Note", description: impressions.flatMap(({ impression }) => impression.plans.map((plan) => plan.fullText)).slice(0, 1).join(" ") || null }]
        : []),
    ],
    attachments: Array.from({ length: random.weighted([[0, 5], [1, 3], [2, 1]] as const) }, () => ({ integrationFileId: `${random.int(100_000, 999_999)}` })),
    stickyNote: (() => {
      const description = random.pick(STICKY_NOTES);
      return { description, createdByIntegrationUserId: description === "" ? null : (facts.stickyAuthor ?? provider).ehrUserId };
    })(),
    billing: draft ? [] : [emLine, ...procedureLines],
    appointments: [
      {
        reason: appointment.reason,
        scheduledStartDate: textTimestamp(start),
        scheduledEndDate: textTimestamp(end),
        scheduledDuration: Math.round((end - start) / MS_PER_MINUTE),
        status: appointment.status,
        appointmentType: { name: type.name, abbreviation: type.abbreviation },
        providerIntegrationUserId: provider.ehrUserId,
        facility: facility.name,
      },
    ],
    mips: draft || random.chance(0.15) ? [] : scenario.mips.flatMap((number) => (MIPS_MEASURES[number] === undefined ? [] : [{ ...MIPS_MEASURES[number] }])),
    counseling: draft ? [] : scenario.counseling.map((item) => ({ ...item })),
    history: [
      { title: "Past Medical History", content: [...scenario.pastMedicalHistory] },
      { title: "Medications", content: scenario.drugs.flatMap((key) => (DRUGS[key] === undefined ? [] : [DRUGS[key].name])) },
      { title: "Allergies", content: [random.pick(ALLERGIES)] },
      ...(adult ? [{ title: "Social History", content: [random.pick(SOCIAL_HISTORY)] }] : []),
      { title: "Family History", content: [random.pick(FAMILY_HISTORY)] },
      ...(random.chance(0.6) ? [{ title: "Surgical History", content: [random.pick(SURGICAL_HISTORY)] }] : []),
    ],
    careTeam: {
      physician: careTeamMember(provider),
      primaryBiller: careTeamMember(facts.supervisor ?? provider),
      attendees: facts.assistant === null ? [] : [{ id: Number(facts.assistant.ehrUserId), staff: careTeamMember(facts.assistant) }],
    },
    followUp: draft ? [] : [{ description: scenario.followUp }],
    timeSpent: {
      minutes: draft ? null : minutes,
      activities: draft ? [] : ["Reviewing prior records", telehealth ? "Video evaluation" : "Face-to-face evaluation", "Counseling and education", "Ordering tests and medications", "Documentation"],
      attestation: draft ? null : `I personally spent ${minutes} minutes on the date of the encounter, including the activities listed.`,
    },
    emBilling: {
      patientStatusLabel: appointment.isNewPatient ? "New patient" : "Established patient",
      billAsNewPatient: appointment.isNewPatient,
      overrideEmCode: !draft && facts.aiIssueCount > 0 && random.chance(0.3) ? em : null,
    },
    addenda: status === "signed" && random.chance(0.7) ? buildAddenda(random, careTeamMember(provider).fullName, end, facts.updatedAt) : [],
  };
}

/** Addenda written after the visit and no later than the note's last update. */
function buildAddenda(random: Random, signer: string, visitEnd: number, updatedAt: number): SoapNote["addenda"] {
  const count = random.int(1, 2);
  return Array.from({ length: count }, (_, index) => {
    const at = visitEnd + Math.floor(((index + 1) / count) * (updatedAt - visitEnd));
    return { note: random.pick(ADDENDUM_TEXTS), signature: `Electronically signed by ${signer} on ${textTimestamp(at).slice(0, 16)} UTC` };
  });
}
