// Real codes and plausible clinical content for the seeded notes: ICD-10-CM
// (with the ICD-9-CM code a GEM maps it to), CPT with approximate Medicare
// allowed amounts, common drugs with their usual sigs, and visit scenarios
// that tie a reason for visit to a coherent chart. Texts may carry the
// placeholders {first}, {age}, {person}, {they}, {their} (see renderText).

/** Which visit scenarios a facility sees: its specialty, coarsely. */
export type Practice = "primary" | "dermatology";

export type AppointmentTypeKey = "new_patient" | "follow_up" | "annual_exam" | "procedure" | "telehealth" | "skin_check";

export interface AppointmentTypeSpec {
  key: AppointmentTypeKey;
  /** Names as kind A (US) and kind B (Australian) practices write them. */
  nameA: string;
  nameB: string;
  abbreviation: string;
  defaultDurationMinutes: number;
  newPatientDurationMinutes: number;
}

export const APPOINTMENT_TYPE_SPECS: readonly AppointmentTypeSpec[] = [
  { key: "new_patient", nameA: "New Patient Visit", nameB: "New Patient Consultation", abbreviation: "NPV", defaultDurationMinutes: 40, newPatientDurationMinutes: 60 },
  { key: "follow_up", nameA: "Follow-Up Visit", nameB: "Standard Consultation", abbreviation: "FU", defaultDurationMinutes: 20, newPatientDurationMinutes: 30 },
  { key: "annual_exam", nameA: "Annual Physical Exam", nameB: "Health Assessment", abbreviation: "APE", defaultDurationMinutes: 30, newPatientDurationMinutes: 45 },
  { key: "procedure", nameA: "Minor Procedure", nameB: "Procedural Consultation", abbreviation: "PROC", defaultDurationMinutes: 30, newPatientDurationMinutes: 45 },
  { key: "telehealth", nameA: "Telehealth Visit", nameB: "Telehealth Consultation", abbreviation: "TELE", defaultDurationMinutes: 15, newPatientDurationMinutes: 30 },
  { key: "skin_check", nameA: "Full Body Skin Exam", nameB: "Skin Check", abbreviation: "FBSE", defaultDurationMinutes: 20, newPatientDurationMinutes: 30 },
];

export interface DiagnosisCode {
  icd10: string;
  icd9: string | null;
  description: string;
}

const dx = (icd10: string, icd9: string | null, description: string): DiagnosisCode => ({ icd10, icd9, description });

export const DIAGNOSES: Readonly<Record<string, DiagnosisCode>> = Object.fromEntries(
  [
    dx("I10", "401.9", "Essential (primary) hypertension"),
    dx("E11.9", "250.00", "Type 2 diabetes mellitus without complications"),
    dx("E11.65", "250.80", "Type 2 diabetes mellitus with hyperglycemia"),
    dx("E78.5", "272.4", "Hyperlipidemia, unspecified"),
    dx("E03.9", "244.9", "Hypothyroidism, unspecified"),
    dx("K21.9", "530.81", "Gastro-esophageal reflux disease without esophagitis"),
    dx("F41.1", "300.02", "Generalized anxiety disorder"),
    dx("F32.0", "296.21", "Major depressive disorder, single episode, mild"),
    dx("J06.9", "465.9", "Acute upper respiratory infection, unspecified"),
    dx("J45.20", "493.90", "Mild intermittent asthma, uncomplicated"),
    dx("N39.0", "599.0", "Urinary tract infection, site not specified"),
    dx("M54.50", "724.2", "Low back pain, unspecified"),
    dx("G43.909", "346.90", "Migraine, unspecified, not intractable, without status migrainosus"),
    dx("Z00.00", "V70.0", "Encounter for general adult medical examination without abnormal findings"),
    dx("Z23", "V04.81", "Encounter for immunization"),
    dx("Z13.31", "V79.0", "Encounter for screening for depression"),
    dx("Z12.83", "V76.43", "Encounter for screening for malignant neoplasm of skin"),
    dx("Z87.891", "V15.82", "Personal history of nicotine dependence"),
    dx("L70.0", "706.1", "Acne vulgaris"),
    dx("L57.0", "702.0", "Actinic keratosis"),
    dx("D48.5", "238.2", "Neoplasm of uncertain behavior of skin"),
    dx("D22.5", "216.5", "Melanocytic nevi of trunk"),
    dx("L20.9", "691.8", "Atopic dermatitis, unspecified"),
    dx("L40.0", "696.1", "Psoriasis vulgaris"),
    dx("L82.1", "702.19", "Other seborrheic keratosis"),
    dx("L71.9", "695.3", "Rosacea, unspecified"),
    dx("L21.9", "690.10", "Seborrheic dermatitis, unspecified"),
    dx("B35.1", "110.1", "Tinea unguium"),
    dx("B07.9", "078.10", "Viral wart, unspecified"),
    dx("C44.311", "173.31", "Basal cell carcinoma of skin of nose"),
    dx("L25.9", "692.9", "Unspecified contact dermatitis, unspecified cause"),
  ].map((code) => [code.icd10, code]),
);

export interface ProcedureCode {
  code: string;
  description: string;
  unitPrice: number;
  chargeType: "professional" | "technical" | "supply";
}

const cpt = (code: string, description: string, unitPrice: number, chargeType: ProcedureCode["chargeType"] = "professional"): ProcedureCode => ({
  code,
  description,
  unitPrice,
  chargeType,
});

export const PROCEDURES: Readonly<Record<string, ProcedureCode>> = Object.fromEntries(
  [
    cpt("99202", "Office/outpatient visit, new patient, straightforward MDM", 74.0),
    cpt("99203", "Office/outpatient visit, new patient, low MDM", 113.0),
    cpt("99204", "Office/outpatient visit, new patient, moderate MDM", 169.0),
    cpt("99205", "Office/outpatient visit, new patient, high MDM", 223.0),
    cpt("99212", "Office/outpatient visit, established patient, straightforward MDM", 57.0),
    cpt("99213", "Office/outpatient visit, established patient, low MDM", 92.0),
    cpt("99214", "Office/outpatient visit, established patient, moderate MDM", 130.0),
    cpt("99215", "Office/outpatient visit, established patient, high MDM", 183.0),
    cpt("99381", "Initial preventive medicine evaluation, infant (under 1 year)", 125.0),
    cpt("99382", "Initial preventive medicine evaluation, age 1-4", 131.0),
    cpt("99383", "Initial preventive medicine evaluation, age 5-11", 136.0),
    cpt("99384", "Initial preventive medicine evaluation, age 12-17", 151.0),
    cpt("99391", "Periodic preventive medicine re-evaluation, infant (under 1 year)", 113.0),
    cpt("99392", "Periodic preventive medicine re-evaluation, age 1-4", 121.0),
    cpt("99393", "Periodic preventive medicine re-evaluation, age 5-11", 120.0),
    cpt("99394", "Periodic preventive medicine re-evaluation, age 12-17", 131.0),
    cpt("99385", "Initial preventive medicine evaluation, age 18-39", 158.0),
    cpt("99386", "Initial preventive medicine evaluation, age 40-64", 183.0),
    cpt("99387", "Initial preventive medicine evaluation, age 65 and over", 199.0),
    cpt("99395", "Periodic preventive medicine re-evaluation, age 18-39", 142.0),
    cpt("99396", "Periodic preventive medicine re-evaluation, age 40-64", 153.0),
    cpt("99397", "Periodic preventive medicine re-evaluation, age 65 and over", 165.0),
    cpt("96127", "Brief emotional/behavioral assessment with scoring", 5.0),
    cpt("17000", "Destruction premalignant lesion; first lesion", 72.0),
    cpt("17003", "Destruction premalignant lesions; second through 14 lesions, each", 5.0),
    cpt("17110", "Destruction of benign lesions other than skin tags; up to 14 lesions", 121.0),
    cpt("11102", "Tangential biopsy of skin; single lesion", 105.0),
    cpt("11103", "Tangential biopsy of skin; each separate additional lesion", 60.0),
    cpt("11104", "Punch biopsy of skin; single lesion", 131.0),
    cpt("11900", "Injection, intralesional; up to and including 7 lesions", 65.0),
    cpt("J3301", "Injection, triamcinolone acetonide, not otherwise specified, 10 mg", 2.0, "supply"),
    cpt("83036", "Hemoglobin; glycosylated (A1c)", 13.0, "technical"),
    cpt("80061", "Lipid panel", 18.0, "technical"),
    cpt("80048", "Basic metabolic panel (calcium, total)", 11.0, "technical"),
    cpt("84443", "Thyroid stimulating hormone (TSH)", 23.0, "technical"),
    cpt("81003", "Urinalysis, automated, without microscopy", 3.0, "technical"),
    cpt("87086", "Culture, bacterial; quantitative colony count, urine", 11.0, "technical"),
    cpt("87880", "Infectious agent antigen detection by immunoassay; Streptococcus, group A", 16.0, "technical"),
    cpt("90686", "Influenza virus vaccine, quadrivalent, split virus, preservative free, IM", 22.0, "supply"),
    cpt("90471", "Immunization administration; one vaccine", 25.0),
    cpt("94640", "Pressurized or nonpressurized inhalation treatment", 20.0),
    cpt("88305", "Level IV surgical pathology, gross and microscopic examination", 72.0, "technical"),
  ].map((code) => [code.code, code]),
);

export interface Drug {
  name: string;
  sig: string;
  quantity: string;
  quantityQualifier: string;
  daysSupply: number;
  refills: number;
}

export const DRUGS: Readonly<Record<string, Drug>> = {
  lisinopril: { name: "Lisinopril 10 mg tablet", sig: "Take 1 tablet by mouth once daily", quantity: "90", quantityQualifier: "tablet", daysSupply: 90, refills: 3 },
  amlodipine: { name: "Amlodipine besylate 5 mg tablet", sig: "Take 1 tablet by mouth once daily", quantity: "90", quantityQualifier: "tablet", daysSupply: 90, refills: 3 },
  metformin: { name: "Metformin ER 500 mg tablet", sig: "Take 2 tablets by mouth once daily with the evening meal", quantity: "180", quantityQualifier: "tablet", daysSupply: 90, refills: 3 },
  atorvastatin: { name: "Atorvastatin calcium 20 mg tablet", sig: "Take 1 tablet by mouth at bedtime", quantity: "90", quantityQualifier: "tablet", daysSupply: 90, refills: 3 },
  levothyroxine: { name: "Levothyroxine sodium 75 mcg tablet", sig: "Take 1 tablet by mouth every morning on an empty stomach", quantity: "90", quantityQualifier: "tablet", daysSupply: 90, refills: 3 },
  omeprazole: { name: "Omeprazole 20 mg delayed-release capsule", sig: "Take 1 capsule by mouth daily 30 minutes before breakfast", quantity: "30", quantityQualifier: "capsule", daysSupply: 30, refills: 2 },
  sertraline: { name: "Sertraline 50 mg tablet", sig: "Take 1/2 tablet by mouth daily for 7 days, then 1 tablet daily", quantity: "30", quantityQualifier: "tablet", daysSupply: 30, refills: 2 },
  albuterol: { name: "Albuterol sulfate HFA 90 mcg/actuation inhaler", sig: "Inhale 2 puffs every 4-6 hours as needed for wheezing or shortness of breath", quantity: "1", quantityQualifier: "inhaler", daysSupply: 30, refills: 1 },
  benzonatate: { name: "Benzonatate 100 mg capsule", sig: "Take 1 capsule by mouth three times daily as needed for cough", quantity: "21", quantityQualifier: "capsule", daysSupply: 7, refills: 0 },
  nitrofurantoin: { name: "Nitrofurantoin monohydrate/macrocrystals 100 mg capsule", sig: "Take 1 capsule by mouth twice daily for 5 days", quantity: "10", quantityQualifier: "capsule", daysSupply: 5, refills: 0 },
  naproxen: { name: "Naproxen 500 mg tablet", sig: "Take 1 tablet by mouth twice daily with food as needed for pain", quantity: "30", quantityQualifier: "tablet", daysSupply: 15, refills: 0 },
  cyclobenzaprine: { name: "Cyclobenzaprine 5 mg tablet", sig: "Take 1 tablet by mouth at bedtime as needed for muscle spasm", quantity: "15", quantityQualifier: "tablet", daysSupply: 15, refills: 0 },
  sumatriptan: { name: "Sumatriptan 50 mg tablet", sig: "Take 1 tablet at migraine onset; may repeat once after 2 hours; max 200 mg/day", quantity: "9", quantityQualifier: "tablet", daysSupply: 30, refills: 2 },
  tretinoin: { name: "Tretinoin 0.025% cream", sig: "Apply a pea-sized amount to the face at bedtime", quantity: "45", quantityQualifier: "gram", daysSupply: 45, refills: 3 },
  doxycycline: { name: "Doxycycline hyclate 100 mg capsule", sig: "Take 1 capsule by mouth twice daily with a full glass of water", quantity: "60", quantityQualifier: "capsule", daysSupply: 30, refills: 2 },
  triamcinolone: { name: "Triamcinolone acetonide 0.1% ointment", sig: "Apply a thin layer to affected areas twice daily for up to 2 weeks", quantity: "80", quantityQualifier: "gram", daysSupply: 14, refills: 1 },
  clobetasol: { name: "Clobetasol propionate 0.05% cream", sig: "Apply to plaques twice daily for 2 weeks, then weekends only", quantity: "60", quantityQualifier: "gram", daysSupply: 30, refills: 1 },
  fluorouracil: { name: "Fluorouracil 5% cream", sig: "Apply to treated area twice daily for 3 weeks", quantity: "40", quantityQualifier: "gram", daysSupply: 21, refills: 0 },
  metronidazoleGel: { name: "Metronidazole 0.75% gel", sig: "Apply a thin layer to the face twice daily", quantity: "45", quantityQualifier: "gram", daysSupply: 30, refills: 2 },
  ketoconazole: { name: "Ketoconazole 2% cream", sig: "Apply to affected areas once daily", quantity: "30", quantityQualifier: "gram", daysSupply: 30, refills: 1 },
  terbinafine: { name: "Terbinafine 250 mg tablet", sig: "Take 1 tablet by mouth once daily for 12 weeks", quantity: "84", quantityQualifier: "tablet", daysSupply: 84, refills: 0 },
  mupirocin: { name: "Mupirocin 2% ointment", sig: "Apply to biopsy site twice daily until healed", quantity: "22", quantityQualifier: "gram", daysSupply: 10, refills: 0 },
  hydrocortisone: { name: "Hydrocortisone 2.5% cream", sig: "Apply to affected areas twice daily for up to 7 days", quantity: "28", quantityQualifier: "gram", daysSupply: 7, refills: 0 },
};

export interface LabTest {
  testType: string;
  procedureTest: string;
  subType: string | null;
  location: string;
  /** Result text when resulted. */
  result: string;
  cpt: string | null;
}

export const LAB_TESTS: Readonly<Record<string, LabTest>> = {
  a1c: { testType: "Lab", procedureTest: "Hemoglobin A1c", subType: "Chemistry", location: "In-house lab", result: "7.4 %", cpt: "83036" },
  lipid: { testType: "Lab", procedureTest: "Lipid panel", subType: "Chemistry", location: "Quest Diagnostics", result: "TC 212, LDL 134, HDL 48, TG 151 mg/dL", cpt: "80061" },
  bmp: { testType: "Lab", procedureTest: "Basic metabolic panel", subType: "Chemistry", location: "Quest Diagnostics", result: "Na 139, K 4.3, Cr 0.92 mg/dL, eGFR 84", cpt: "80048" },
  tsh: { testType: "Lab", procedureTest: "TSH", subType: "Endocrine", location: "LabCorp", result: "3.1 mIU/L", cpt: "84443" },
  urinalysis: { testType: "Lab", procedureTest: "Urinalysis, dipstick", subType: "Urinalysis", location: "In-house lab", result: "LE 2+, nitrite positive, blood trace", cpt: "81003" },
  urineCulture: { testType: "Lab", procedureTest: "Urine culture", subType: "Microbiology", location: "LabCorp", result: ">100,000 CFU/mL E. coli, sensitive to nitrofurantoin", cpt: "87086" },
  rapidStrep: { testType: "Lab", procedureTest: "Rapid strep antigen", subType: "Microbiology", location: "In-house lab", result: "Negative", cpt: "87880" },
  phq9: { testType: "Screening", procedureTest: "PHQ-9", subType: "Behavioral health", location: "In office", result: "Score 11 (moderate)", cpt: "96127" },
  gad7: { testType: "Screening", procedureTest: "GAD-7", subType: "Behavioral health", location: "In office", result: "Score 12 (moderate)", cpt: "96127" },
  shaveBiopsy: { testType: "Pathology", procedureTest: "Shave biopsy, dermatopathology", subType: "Dermatopathology", location: "Dermpath Diagnostics", result: "Compound dysplastic nevus with mild atypia; margins clear", cpt: "88305" },
  punchBiopsy: { testType: "Pathology", procedureTest: "Punch biopsy, dermatopathology", subType: "Dermatopathology", location: "Dermpath Diagnostics", result: "Nodular basal cell carcinoma; peripheral margin involved", cpt: "88305" },
  koh: { testType: "Lab", procedureTest: "KOH preparation, nail", subType: "Microbiology", location: "In-house lab", result: "Septate hyphae seen", cpt: null },
  xrayLumbar: { testType: "Imaging", procedureTest: "X-ray lumbar spine, 2-3 views", subType: "Radiology", location: "Radiology Partners", result: "Mild degenerative disc disease L4-L5; no fracture", cpt: null },
};

export interface MipsMeasure {
  number: number;
  title: string;
  content: string;
}

export const MIPS_MEASURES: Readonly<Record<number, MipsMeasure>> = {
  1: { number: 1, title: "Diabetes: Hemoglobin A1c (HbA1c) Poor Control (>9%)", content: "Most recent HbA1c 7.4%; performance met (A1c <= 9.0%)." },
  47: { number: 47, title: "Advance Care Plan", content: "Advance care plan discussed; patient has a designated health care proxy on file." },
  110: { number: 110, title: "Preventive Care and Screening: Influenza Immunization", content: "Influenza immunization administered this visit." },
  130: { number: 130, title: "Documentation of Current Medications in the Medical Record", content: "Current medications documented, reviewed and reconciled." },
  134: { number: 134, title: "Preventive Care and Screening: Screening for Depression and Follow-Up Plan", content: "Screened with PHQ-9; follow-up plan documented." },
  137: { number: 137, title: "Melanoma: Continuity of Care - Recall System", content: "Patient entered into the recall system for a 12-month skin examination." },
  226: { number: 226, title: "Preventive Care and Screening: Tobacco Use: Screening and Cessation Intervention", content: "Screened for tobacco use; non-user." },
  236: { number: 236, title: "Controlling High Blood Pressure", content: "Most recent blood pressure below 140/90 mmHg; performance met." },
  317: { number: 317, title: "Preventive Care and Screening: Screening for High Blood Pressure and Follow-Up Documented", content: "Blood pressure screened; follow-up documented." },
  374: { number: 374, title: "Closing the Referral Loop: Receipt of Specialist Report", content: "Referral placed; awaiting specialist report." },
  440: { number: 440, title: "Skin Cancer: Biopsy Reporting Time - Pathologist to Clinician", content: "Pathology report received within 7 days of biopsy." },
};

export interface ExamFinding {
  title: string;
  description: string;
}

export const NORMAL_EXAMS: Readonly<Record<string, ExamFinding>> = {
  constitutional: { title: "Constitutional", description: "Well-appearing, well-nourished, in no acute distress." },
  heent: { title: "HEENT", description: "Normocephalic, atraumatic. PERRL. TMs clear bilaterally. Oropharynx without erythema or exudate." },
  neck: { title: "Neck", description: "Supple, no lymphadenopathy, no thyromegaly." },
  cardiovascular: { title: "Cardiovascular", description: "Regular rate and rhythm. No murmurs, rubs or gallops. No peripheral edema." },
  respiratory: { title: "Respiratory", description: "Clear to auscultation bilaterally. No wheezes, rales or rhonchi. Normal work of breathing." },
  abdomen: { title: "Abdomen", description: "Soft, non-tender, non-distended. Normal bowel sounds. No hepatosplenomegaly." },
  musculoskeletal: { title: "Musculoskeletal", description: "Normal gait. Full range of motion of all extremities." },
  neurological: { title: "Neurological", description: "Alert and oriented x3. Cranial nerves II-XII grossly intact. Strength 5/5 throughout." },
  psychiatric: { title: "Psychiatric", description: "Normal mood and affect. Linear thought process. Judgment and insight intact." },
  skinGeneral: { title: "Skin", description: "Warm and dry. No rashes or suspicious lesions on exposed skin." },
};

export interface ScenarioImpression {
  name: string;
  dx: readonly string[];
  summary: string;
  morphology: string | null;
  bodyLocations: readonly string[];
  dxStatus: string;
  dxComplexity: string;
  isNew: boolean;
  isRuleout?: boolean;
  ddx?: string;
  associatedDx?: string;
  causeDx?: string;
  plans: readonly { title: string; fullText: string; location?: string }[];
  assessments: readonly { name: string; value: string }[];
}

export interface ScenarioProcedure {
  code: string;
  modifiers: readonly string[];
  units: number;
  dx: readonly string[];
}

export interface ClinicalScenario {
  key: string;
  practices: readonly Practice[];
  appointmentTypes: readonly AppointmentTypeKey[];
  /** Seen in children as well as adults. */
  pediatric?: boolean;
  /** The appointment's reason for visit. */
  reason: string;
  chiefComplaint: { title: string; description: string };
  secondaryComplaint?: { title: string; description: string };
  historicalSummary: string;
  ros: string;
  /** Keys of NORMAL_EXAMS, plus the scenario's own findings. */
  normalExams: readonly string[];
  findings: readonly ExamFinding[];
  impressions: readonly ScenarioImpression[];
  drugs: readonly string[];
  /** Keys of LAB_TESTS. */
  tests: readonly string[];
  procedures: readonly ScenarioProcedure[];
  /** E/M complexity: 2-5 (9921x/9920x), or "preventive" (9938x/9939x). */
  emLevel: 2 | 3 | 4 | 5 | "preventive";
  counseling: readonly { title: string; content: string }[];
  mips: readonly number[];
  followUp: string;
  pastMedicalHistory: readonly string[];
  dataReviewed: string | null;
  patientInstructions: string;
}

export const SCENARIOS: readonly ClinicalScenario[] = [
  {
    key: "hypertension",
    practices: ["primary"],
    appointmentTypes: ["follow_up", "telehealth"],
    reason: "Blood pressure follow-up",
    chiefComplaint: { title: "Hypertension follow-up", description: "{first} returns for follow-up of hypertension. Home readings average 138/86. Taking lisinopril daily without missed doses; denies cough or lightheadedness." },
    secondaryComplaint: { title: "Medication refill", description: "Requests 90-day refills sent to the usual pharmacy." },
    historicalSummary: "{first} is a {age}-year-old {person} with hypertension diagnosed 4 years ago, on lisinopril 10 mg daily.",
    ros: "Negative for chest pain, palpitations, dyspnea, headache, vision changes and leg swelling.",
    normalExams: ["constitutional", "neck", "cardiovascular", "respiratory"],
    findings: [{ title: "Extremities", description: "No edema. Distal pulses 2+ and symmetric." }],
    impressions: [
      {
        name: "Essential hypertension",
        dx: ["I10"],
        summary: "Near goal on current therapy; home readings slightly above 130/80.",
        morphology: null,
        bodyLocations: [],
        dxStatus: "Improving",
        dxComplexity: "Chronic illness with mild exacerbation",
        isNew: false,
        plans: [
          { title: "Medication", fullText: "Continue lisinopril 10 mg daily. Add amlodipine 5 mg daily if home average stays above 135/85." },
          { title: "Labs", fullText: "Basic metabolic panel to monitor potassium and renal function on ACE inhibitor." },
          { title: "Lifestyle", fullText: "DASH diet, sodium under 2 g/day, 150 minutes of moderate exercise weekly." },
        ],
        assessments: [
          { name: "Control", value: "Near goal" },
          { name: "Target", value: "< 130/80 mmHg" },
        ],
      },
    ],
    drugs: ["lisinopril"],
    tests: ["bmp"],
    procedures: [],
    emLevel: 4,
    counseling: [{ title: "Blood pressure self-monitoring", content: "Reviewed home cuff technique: seated, arm supported, two readings morning and evening for one week before the next visit." }],
    mips: [236, 130, 226],
    followUp: "Return in 3 months for blood pressure recheck, sooner if home readings exceed 160/100.",
    pastMedicalHistory: ["Hypertension", "Hyperlipidemia"],
    dataReviewed: "Reviewed home blood pressure log (14 readings) and BMP from 6 months ago.",
    patientInstructions: "Keep a home blood pressure log and bring it to the next visit.",
  },
  {
    key: "diabetes",
    practices: ["primary"],
    appointmentTypes: ["follow_up"],
    reason: "Diabetes check, A1c review",
    chiefComplaint: { title: "Type 2 diabetes follow-up", description: "{first} presents for diabetes follow-up. Fasting glucose 120-160 mg/dL at home. Reports occasional evening snacking; no hypoglycemic episodes." },
    historicalSummary: "{first} is a {age}-year-old {person} with type 2 diabetes for 6 years on metformin ER, last A1c 7.9%.",
    ros: "Negative for polyuria, polydipsia, blurred vision, numbness or tingling in feet, and foot ulcers.",
    normalExams: ["constitutional", "cardiovascular", "respiratory"],
    findings: [{ title: "Diabetic foot exam", description: "Monofilament sensation intact bilaterally. No calluses, ulcers or deformities. Pedal pulses 2+." }],
    impressions: [
      {
        name: "Type 2 diabetes mellitus with hyperglycemia",
        dx: ["E11.65"],
        summary: "A1c above goal; adherent to metformin; dietary triggers identified.",
        morphology: null,
        bodyLocations: [],
        dxStatus: "Worsening",
        dxComplexity: "Chronic illness with progression",
        isNew: false,
        plans: [
          { title: "Medication", fullText: "Increase metformin ER to 1000 mg daily with evening meal. Discussed GLP-1 agonist if A1c remains above 7.5%." },
          { title: "Labs", fullText: "Hemoglobin A1c today; urine albumin-to-creatinine ratio at next visit." },
          { title: "Referral", fullText: "Diabetes self-management education referral placed." },
        ],
        assessments: [
          { name: "A1c goal", value: "< 7.0%" },
          { name: "Hypoglycemia risk", value: "Low" },
        ],
      },
      {
        name: "Hyperlipidemia",
        dx: ["E78.5"],
        summary: "On atorvastatin, tolerating well.",
        morphology: null,
        bodyLocations: [],
        dxStatus: "Stable",
        dxComplexity: "Stable chronic illness",
        isNew: false,
        plans: [{ title: "Medication", fullText: "Continue atorvastatin 20 mg at bedtime." }],
        assessments: [{ name: "ASCVD 10-year risk", value: "12.4%" }],
      },
    ],
    drugs: ["metformin", "atorvastatin"],
    tests: ["a1c", "lipid"],
    procedures: [],
    emLevel: 4,
    counseling: [{ title: "Nutrition", content: "Discussed carbohydrate portions, plate method and replacing evening snacks with protein-based options." }],
    mips: [1, 130, 226],
    followUp: "Return in 3 months with fasting labs one week before.",
    pastMedicalHistory: ["Type 2 diabetes mellitus", "Hyperlipidemia", "Obesity"],
    dataReviewed: "Glucose meter download reviewed: 30-day average 148 mg/dL.",
    patientInstructions: "Check fasting glucose daily and bring the meter to the next visit.",
  },
  {
    key: "annual-physical",
    pediatric: true,
    practices: ["primary"],
    appointmentTypes: ["annual_exam", "new_patient"],
    reason: "Annual physical",
    chiefComplaint: { title: "Annual preventive visit", description: "{first} presents for an annual preventive examination. No acute concerns today." },
    historicalSummary: "{first} is a {age}-year-old {person} in good health presenting for routine preventive care.",
    ros: "Comprehensive 12-point review of systems negative except as noted in HPI.",
    normalExams: ["constitutional", "heent", "neck", "cardiovascular", "respiratory", "abdomen", "musculoskeletal", "neurological", "psychiatric", "skinGeneral"],
    findings: [],
    impressions: [
      {
        name: "Encounter for general adult medical examination without abnormal findings",
        dx: ["Z00.00"],
        summary: "Routine preventive visit; age-appropriate screenings reviewed.",
        morphology: null,
        bodyLocations: [],
        dxStatus: "Stable",
        dxComplexity: "Preventive",
        isNew: false,
        plans: [
          { title: "Screening", fullText: "Lipid panel and TSH ordered. Colorectal and cervical/prostate screening discussed per age guidelines." },
          { title: "Immunizations", fullText: "Influenza vaccine administered today. Tdap up to date." },
        ],
        assessments: [{ name: "Health maintenance", value: "Up to date after today's vaccine" }],
      },
      {
        name: "Encounter for immunization",
        dx: ["Z23"],
        summary: "Seasonal influenza vaccine given, left deltoid.",
        morphology: null,
        bodyLocations: ["Left deltoid"],
        dxStatus: "Resolved",
        dxComplexity: "Preventive",
        isNew: true,
        plans: [{ title: "Vaccine", fullText: "Influenza quadrivalent 0.5 mL IM, lot recorded in immunization record; VIS provided.", location: "Left deltoid" }],
        assessments: [],
      },
    ],
    drugs: [],
    tests: ["lipid", "tsh", "phq9"],
    procedures: [
      { code: "90686", modifiers: [], units: 1, dx: ["Z23"] },
      { code: "90471", modifiers: [], units: 1, dx: ["Z23"] },
      { code: "96127", modifiers: ["59"], units: 1, dx: ["Z13.31"] },
    ],
    emLevel: "preventive",
    counseling: [
      { title: "Diet and exercise", content: "Counseled on a Mediterranean-style diet and at least 150 minutes of moderate activity per week." },
      { title: "Sleep", content: "Discussed sleep hygiene; goal 7-8 hours nightly." },
    ],
    mips: [110, 134, 226, 317, 47],
    followUp: "Return in 12 months for the next preventive visit.",
    pastMedicalHistory: ["No significant past medical history"],
    dataReviewed: "Prior labs from last year reviewed: unremarkable.",
    patientInstructions: "Fast for 10 hours before the lab draw. Results will be posted to the patient portal.",
  },
  {
    key: "uri",
    pediatric: true,
    practices: ["primary"],
    appointmentTypes: ["follow_up", "telehealth", "new_patient"],
    reason: "Cough and congestion for 5 days",
    chiefComplaint: { title: "Cough and nasal congestion", description: "{first} reports 5 days of nasal congestion, sore throat and dry cough. Subjective low-grade fever on day 2. Sick contacts at home." },
    historicalSummary: "{first} is a {age}-year-old {person}, otherwise healthy, with an acute respiratory illness.",
    ros: "Positive for rhinorrhea, sore throat and cough. Negative for dyspnea, chest pain, ear pain and rash.",
    normalExams: ["constitutional", "neck", "cardiovascular", "respiratory"],
    findings: [{ title: "HEENT", description: "Nasal mucosa edematous with clear rhinorrhea. Mild pharyngeal erythema without exudate. TMs clear." }],
    impressions: [
      {
        name: "Acute upper respiratory infection",
        dx: ["J06.9"],
        summary: "Likely viral; rapid strep negative. No signs of pneumonia or bacterial sinusitis.",
        morphology: null,
        bodyLocations: [],
        dxStatus: "New",
        dxComplexity: "Acute uncomplicated illness",
        isNew: true,
        ddx: "Streptococcal pharyngitis (ruled out by rapid test); acute bacterial sinusitis; COVID-19",
        plans: [
          { title: "Supportive care", fullText: "Fluids, rest, saline nasal irrigation, honey for cough. Benzonatate as needed." },
          { title: "Return precautions", fullText: "Return for fever above 39 C, symptoms beyond 10 days, or shortness of breath." },
        ],
        assessments: [{ name: "Severity", value: "Mild" }],
      },
    ],
    drugs: ["benzonatate"],
    tests: ["rapidStrep"],
    procedures: [{ code: "87880", modifiers: ["QW"], units: 1, dx: ["J06.9"] }],
    emLevel: 3,
    counseling: [{ title: "Antibiotic stewardship", content: "Explained that antibiotics do not help viral infections and carry side-effect risks." }],
    mips: [130],
    followUp: "Follow up as needed if not improving within 7-10 days.",
    pastMedicalHistory: ["Seasonal allergies"],
    dataReviewed: null,
    patientInstructions: "Rest, fluids and saline rinses. Call if fever or shortness of breath develops.",
  },
  {
    key: "low-back-pain",
    practices: ["primary"],
    appointmentTypes: ["follow_up", "new_patient"],
    reason: "Low back pain",
    chiefComplaint: { title: "Low back pain", description: "{first} reports 2 weeks of low back pain after moving furniture. Pain 6/10, worse with bending, no radiation below the knee." },
    historicalSummary: "{first} is a {age}-year-old {person} with mechanical low back pain of 2 weeks' duration.",
    ros: "Negative for fever, weight loss, saddle anesthesia, bowel or bladder changes, and leg weakness.",
    normalExams: ["constitutional", "neurological"],
    findings: [{ title: "Back", description: "Paraspinal tenderness L4-S1 bilaterally. Straight-leg raise negative bilaterally. Reflexes 2+ and symmetric." }],
    impressions: [
      {
        name: "Acute low back pain without sciatica",
        dx: ["M54.50"],
        summary: "Mechanical strain; no red flags.",
        morphology: null,
        bodyLocations: ["Lumbar spine"],
        dxStatus: "New",
        dxComplexity: "Acute uncomplicated illness or injury",
        isNew: true,
        causeDx: "Lifting injury",
        plans: [
          { title: "Medication", fullText: "Naproxen 500 mg twice daily with food for up to 2 weeks; cyclobenzaprine at bedtime as needed." },
          { title: "Physical therapy", fullText: "Referral to physical therapy, 2 sessions weekly for 6 weeks." },
          { title: "Imaging", fullText: "No imaging indicated at this time; reconsider if symptoms persist beyond 6 weeks." },
        ],
        assessments: [{ name: "Pain score", value: "6/10" }],
      },
    ],
    drugs: ["naproxen", "cyclobenzaprine"],
    tests: [],
    procedures: [],
    emLevel: 3,
    counseling: [{ title: "Activity", content: "Encouraged staying active, heat, and avoiding bed rest." }],
    mips: [130],
    followUp: "Return in 4 weeks if not improved.",
    pastMedicalHistory: ["No significant past medical history"],
    dataReviewed: null,
    patientInstructions: "Use heat 20 minutes at a time and start the home exercise sheet.",
  },
  {
    key: "depression-anxiety",
    practices: ["primary"],
    appointmentTypes: ["follow_up", "telehealth"],
    reason: "Mood follow-up",
    chiefComplaint: { title: "Low mood and worry", description: "{first} reports low mood, poor sleep and excessive worry for about 3 months, affecting work concentration. Denies suicidal ideation." },
    secondaryComplaint: { title: "Insomnia", description: "Difficulty falling asleep most nights; 5 hours of sleep on average." },
    historicalSummary: "{first} is a {age}-year-old {person} with new symptoms of depression and anxiety after a job change.",
    ros: "Positive for fatigue and insomnia. Negative for weight change, palpitations and suicidal ideation.",
    normalExams: ["constitutional", "neurological"],
    findings: [{ title: "Psychiatric", description: "Mildly depressed mood, congruent affect. Linear thought process. No suicidal or homicidal ideation." }],
    impressions: [
      {
        name: "Major depressive disorder, single episode, mild",
        dx: ["F32.0"],
        summary: "PHQ-9 of 11; functional impact at work.",
        morphology: null,
        bodyLocations: [],
        dxStatus: "New",
        dxComplexity: "Chronic illness with exacerbation",
        isNew: true,
        plans: [
          { title: "Medication", fullText: "Start sertraline 25 mg daily for 7 days, then 50 mg daily." },
          { title: "Therapy", fullText: "Referral to behavioral health for cognitive behavioral therapy." },
          { title: "Safety", fullText: "Crisis line information (988) provided." },
        ],
        assessments: [{ name: "PHQ-9", value: "11" }],
      },
      {
        name: "Generalized anxiety disorder",
        dx: ["F41.1"],
        summary: "GAD-7 of 12.",
        morphology: null,
        bodyLocations: [],
        dxStatus: "New",
        dxComplexity: "Chronic illness with exacerbation",
        isNew: true,
        associatedDx: "Major depressive disorder, single episode, mild",
        plans: [{ title: "Monitoring", fullText: "Repeat GAD-7 and PHQ-9 in 6 weeks." }],
        assessments: [{ name: "GAD-7", value: "12" }],
      },
    ],
    drugs: ["sertraline"],
    tests: ["phq9", "gad7"],
    procedures: [{ code: "96127", modifiers: [], units: 2, dx: ["F32.0", "F41.1"] }],
    emLevel: 4,
    counseling: [{ title: "SSRI expectations", content: "Discussed 4-6 week onset, common side effects and not stopping abruptly." }],
    mips: [134, 130],
    followUp: "Return in 4-6 weeks to reassess mood and medication tolerance.",
    pastMedicalHistory: ["No prior psychiatric history"],
    dataReviewed: "PHQ-9 and GAD-7 questionnaires scored and reviewed with the patient.",
    patientInstructions: "Take sertraline in the morning. Call 988 or go to the nearest emergency department if you have thoughts of self-harm.",
  },
  {
    key: "uti",
    practices: ["primary"],
    appointmentTypes: ["follow_up", "telehealth"],
    reason: "Burning with urination",
    chiefComplaint: { title: "Dysuria", description: "{first} reports 2 days of burning with urination, frequency and urgency. No fever or flank pain." },
    historicalSummary: "{first} is a {age}-year-old {person} with symptoms of an uncomplicated lower urinary tract infection.",
    ros: "Positive for dysuria and frequency. Negative for fever, flank pain, hematuria, nausea and vaginal discharge.",
    normalExams: ["constitutional", "cardiovascular"],
    findings: [{ title: "Abdomen", description: "Mild suprapubic tenderness. No costovertebral angle tenderness." }],
    impressions: [
      {
        name: "Urinary tract infection",
        dx: ["N39.0"],
        summary: "Uncomplicated cystitis; dipstick positive for leukocyte esterase and nitrite.",
        morphology: null,
        bodyLocations: [],
        dxStatus: "New",
        dxComplexity: "Acute uncomplicated illness",
        isNew: true,
        plans: [
          { title: "Antibiotic", fullText: "Nitrofurantoin 100 mg twice daily for 5 days." },
          { title: "Culture", fullText: "Urine culture sent; will adjust therapy to sensitivities." },
        ],
        assessments: [{ name: "Complicated", value: "No" }],
      },
    ],
    drugs: ["nitrofurantoin"],
    tests: ["urinalysis", "urineCulture"],
    procedures: [{ code: "81003", modifiers: ["QW"], units: 1, dx: ["N39.0"] }],
    emLevel: 3,
    counseling: [{ title: "Hydration", content: "Encouraged increased fluid intake and completing the full antibiotic course." }],
    mips: [130],
    followUp: "Call if symptoms persist after 48 hours of treatment.",
    pastMedicalHistory: ["One prior urinary tract infection"],
    dataReviewed: null,
    patientInstructions: "Finish all antibiotic doses. Call for fever or back pain.",
  },
  {
    key: "hypothyroidism",
    practices: ["primary"],
    appointmentTypes: ["follow_up", "telehealth"],
    reason: "Thyroid follow-up",
    chiefComplaint: { title: "Hypothyroidism follow-up", description: "{first} follows up on hypothyroidism. Energy improved since the dose change. Taking levothyroxine on an empty stomach." },
    historicalSummary: "{first} is a {age}-year-old {person} with primary hypothyroidism on levothyroxine 75 mcg.",
    ros: "Negative for palpitations, tremor, heat or cold intolerance, constipation and hair loss.",
    normalExams: ["constitutional", "neck", "cardiovascular"],
    findings: [],
    impressions: [
      {
        name: "Hypothyroidism",
        dx: ["E03.9"],
        summary: "Clinically euthyroid; TSH within range.",
        morphology: null,
        bodyLocations: [],
        dxStatus: "Stable",
        dxComplexity: "Stable chronic illness",
        isNew: false,
        plans: [{ title: "Medication", fullText: "Continue levothyroxine 75 mcg daily. Recheck TSH in 12 months." }],
        assessments: [{ name: "TSH", value: "3.1 mIU/L" }],
      },
    ],
    drugs: ["levothyroxine"],
    tests: ["tsh"],
    procedures: [],
    emLevel: 3,
    counseling: [],
    mips: [130],
    followUp: "Return in 12 months with TSH beforehand.",
    pastMedicalHistory: ["Hypothyroidism"],
    dataReviewed: "TSH trend over 2 years reviewed.",
    patientInstructions: "Take levothyroxine 30-60 minutes before breakfast, separate from calcium and iron.",
  },
  {
    key: "migraine",
    practices: ["primary"],
    appointmentTypes: ["follow_up", "new_patient", "telehealth"],
    reason: "Headaches",
    chiefComplaint: { title: "Recurrent headaches", description: "{first} reports throbbing unilateral headaches 3-4 times a month with nausea and light sensitivity, lasting up to a day." },
    historicalSummary: "{first} is a {age}-year-old {person} with episodic migraine without aura since adolescence, now more frequent.",
    ros: "Positive for photophobia and nausea with headaches. Negative for weakness, numbness, vision loss and fever.",
    normalExams: ["constitutional", "heent", "neurological"],
    findings: [{ title: "Fundoscopic", description: "Sharp optic disc margins bilaterally." }],
    impressions: [
      {
        name: "Migraine without aura",
        dx: ["G43.909"],
        summary: "Episodic migraine; normal neurological exam; no red flags.",
        morphology: null,
        bodyLocations: ["Head"],
        dxStatus: "Worsening",
        dxComplexity: "Chronic illness with exacerbation",
        isNew: false,
        plans: [
          { title: "Acute treatment", fullText: "Sumatriptan 50 mg at onset, may repeat once after 2 hours." },
          { title: "Headache diary", fullText: "Keep a diary of triggers, frequency and medication use." },
        ],
        assessments: [{ name: "Headache days per month", value: "4" }],
      },
    ],
    drugs: ["sumatriptan"],
    tests: [],
    procedures: [],
    emLevel: 4,
    counseling: [{ title: "Medication overuse", content: "Limit acute medication to fewer than 10 days per month to avoid rebound headache." }],
    mips: [130],
    followUp: "Return in 2 months with the headache diary.",
    pastMedicalHistory: ["Migraine"],
    dataReviewed: null,
    patientInstructions: "Take sumatriptan early in the headache. Seek care for the worst headache of your life or new weakness.",
  },
  {
    key: "acne",
    pediatric: true,
    practices: ["dermatology"],
    appointmentTypes: ["new_patient", "follow_up", "telehealth"],
    reason: "Acne",
    chiefComplaint: { title: "Acne", description: "{first} presents with comedones and inflammatory papules on the face and upper back for over a year, not improved with over-the-counter benzoyl peroxide." },
    historicalSummary: "{first} is a {age}-year-old {person} with moderate acne vulgaris.",
    ros: "Negative for fever and joint pain. No hirsutism or irregular menses reported.",
    normalExams: ["constitutional"],
    findings: [
      { title: "Face", description: "Open and closed comedones on the forehead and chin; 12-15 inflammatory papules and pustules on the cheeks." },
      { title: "Back", description: "Scattered inflammatory papules on the upper back. No nodules or cysts." },
    ],
    impressions: [
      {
        name: "Acne vulgaris",
        dx: ["L70.0"],
        summary: "Moderate mixed comedonal and inflammatory acne.",
        morphology: "Comedones, papules, pustules",
        bodyLocations: ["Face", "Upper back"],
        dxStatus: "Worsening",
        dxComplexity: "Chronic illness with exacerbation",
        isNew: false,
        plans: [
          { title: "Topical", fullText: "Tretinoin 0.025% cream nightly, start every other night for 2 weeks.", location: "Face" },
          { title: "Oral", fullText: "Doxycycline 100 mg twice daily for 3 months, then reassess." },
        ],
        assessments: [
          { name: "Severity", value: "Moderate" },
          { name: "Scarring", value: "None" },
        ],
      },
    ],
    drugs: ["tretinoin", "doxycycline"],
    tests: [],
    procedures: [],
    emLevel: 4,
    counseling: [{ title: "Retinoid use", content: "Apply a pea-sized amount to dry skin; expect irritation in the first weeks; use daily sunscreen. Take doxycycline upright with water." }],
    mips: [130],
    followUp: "Return in 12 weeks to assess response.",
    pastMedicalHistory: ["No significant past medical history"],
    dataReviewed: null,
    patientInstructions: "Use a gentle cleanser and non-comedogenic moisturizer. Avoid picking lesions.",
  },
  {
    key: "actinic-keratosis",
    practices: ["dermatology"],
    appointmentTypes: ["procedure", "follow_up", "skin_check"],
    reason: "Rough spots on scalp and hands",
    chiefComplaint: { title: "Rough scaly spots", description: "{first} reports rough, scaly spots on the scalp and dorsal hands that come and go, some tender." },
    historicalSummary: "{first} is a {age}-year-old {person} with extensive sun exposure and prior actinic keratoses.",
    ros: "Negative for bleeding lesions and non-healing sores.",
    normalExams: ["constitutional"],
    findings: [
      { title: "Scalp", description: "Five erythematous, gritty, scaly macules on the vertex and frontal scalp." },
      { title: "Hands", description: "Two hyperkeratotic papules on the dorsal right hand." },
    ],
    impressions: [
      {
        name: "Actinic keratosis",
        dx: ["L57.0"],
        summary: "Seven actinic keratoses treated with liquid nitrogen cryotherapy.",
        morphology: "Erythematous scaly macules and papules",
        bodyLocations: ["Scalp", "Dorsal right hand"],
        dxStatus: "Stable",
        dxComplexity: "Chronic illness",
        isNew: false,
        plans: [
          { title: "Cryotherapy", fullText: "Liquid nitrogen, 2 freeze-thaw cycles of 5-10 seconds to 7 lesions. Verbal consent obtained; risks of blistering and hypopigmentation reviewed.", location: "Scalp, dorsal right hand" },
          { title: "Field therapy", fullText: "Consider fluorouracil 5% cream to the scalp if new lesions appear." },
        ],
        assessments: [{ name: "Lesions treated", value: "7" }],
      },
    ],
    drugs: [],
    tests: [],
    procedures: [
      { code: "17000", modifiers: [], units: 1, dx: ["L57.0"] },
      { code: "17003", modifiers: [], units: 6, dx: ["L57.0"] },
    ],
    emLevel: 3,
    counseling: [{ title: "Sun protection", content: "Broad-spectrum SPF 30+ daily, wide-brimmed hat, avoid midday sun." }],
    mips: [137, 130],
    followUp: "Return in 6 months for a skin check.",
    pastMedicalHistory: ["Actinic keratoses", "Hypertension"],
    dataReviewed: null,
    patientInstructions: "Treated spots may blister and crust for 1-2 weeks. Keep them clean and apply petrolatum.",
  },
  {
    key: "nevus-biopsy",
    practices: ["dermatology"],
    appointmentTypes: ["skin_check", "procedure", "new_patient"],
    reason: "Changing mole on back",
    chiefComplaint: { title: "Changing mole", description: "{first}'s partner noticed that a mole on the upper back has grown and darkened over the last 6 months." },
    secondaryComplaint: { title: "Full skin exam", description: "Requests a full body skin examination; family history of melanoma in a parent." },
    historicalSummary: "{first} is a {age}-year-old {person} with many nevi and a family history of melanoma.",
    ros: "Negative for bleeding, itching or pain of the lesion. No weight loss.",
    normalExams: ["constitutional"],
    findings: [
      { title: "Full body skin exam", description: "Scalp, face, neck, chest, abdomen, back, arms, legs, hands and feet examined. Multiple benign-appearing nevi." },
      { title: "Back", description: "7 mm irregularly pigmented macule with asymmetric borders on the left upper back; dermoscopy with atypical network." },
    ],
    impressions: [
      {
        name: "Neoplasm of uncertain behavior of skin",
        dx: ["D48.5"],
        summary: "Atypical pigmented lesion, left upper back; rule out melanoma.",
        morphology: "Irregularly pigmented macule",
        bodyLocations: ["Left upper back"],
        dxStatus: "New",
        dxComplexity: "Undiagnosed new problem with uncertain prognosis",
        isNew: true,
        isRuleout: true,
        ddx: "Dysplastic nevus; melanoma in situ; seborrheic keratosis",
        plans: [
          { title: "Shave biopsy", fullText: "Deep shave (saucerization) biopsy after informed consent; 1% lidocaine with epinephrine; hemostasis with aluminum chloride. Specimen A to dermatopathology.", location: "Left upper back" },
          { title: "Wound care", fullText: "Petrolatum and a bandage daily until healed." },
        ],
        assessments: [{ name: "Dermoscopy", value: "Atypical network, blue-gray structures" }],
      },
      {
        name: "Melanocytic nevi of trunk",
        dx: ["D22.5"],
        summary: "Multiple benign-appearing nevi.",
        morphology: "Uniform brown macules",
        bodyLocations: ["Trunk"],
        dxStatus: "Stable",
        dxComplexity: "Stable chronic illness",
        isNew: false,
        plans: [{ title: "Monitoring", fullText: "Monthly self skin checks; total body photography offered." }],
        assessments: [],
      },
    ],
    drugs: ["mupirocin"],
    tests: ["shaveBiopsy"],
    procedures: [{ code: "11102", modifiers: [], units: 1, dx: ["D48.5"] }],
    emLevel: 3,
    counseling: [{ title: "ABCDEs of melanoma", content: "Reviewed asymmetry, border, color, diameter and evolution; monthly self-exams." }],
    mips: [137, 440, 130],
    followUp: "Pathology results in 7-10 days; return in 2 weeks for a wound check and results.",
    pastMedicalHistory: ["Dysplastic nevi"],
    dataReviewed: null,
    patientInstructions: "Keep the biopsy site clean and covered. We will call you with the pathology result.",
  },
  {
    key: "atopic-dermatitis",
    pediatric: true,
    practices: ["dermatology", "primary"],
    appointmentTypes: ["follow_up", "new_patient", "telehealth"],
    reason: "Itchy rash",
    chiefComplaint: { title: "Itchy rash", description: "{first} reports an itchy rash in the elbow and knee creases that flares in winter and disturbs sleep." },
    historicalSummary: "{first} is a {age}-year-old {person} with atopic dermatitis since childhood and seasonal allergies.",
    ros: "Positive for pruritus and sleep disturbance. Negative for fever and skin infection.",
    normalExams: ["constitutional"],
    findings: [{ title: "Extremities", description: "Lichenified erythematous plaques with excoriations in the antecubital and popliteal fossae. No honey-colored crusting." }],
    impressions: [
      {
        name: "Atopic dermatitis",
        dx: ["L20.9"],
        summary: "Moderate flare of flexural atopic dermatitis.",
        morphology: "Lichenified eczematous plaques",
        bodyLocations: ["Antecubital fossae", "Popliteal fossae"],
        dxStatus: "Worsening",
        dxComplexity: "Chronic illness with exacerbation",
        isNew: false,
        plans: [
          { title: "Topical steroid", fullText: "Triamcinolone 0.1% ointment twice daily to body plaques for up to 2 weeks.", location: "Flexures" },
          { title: "Skin care", fullText: "Thick fragrance-free emollient twice daily; short lukewarm showers." },
        ],
        assessments: [
          { name: "Severity", value: "Moderate" },
          { name: "Itch (NRS)", value: "7/10" },
        ],
      },
    ],
    drugs: ["triamcinolone"],
    tests: [],
    procedures: [],
    emLevel: 3,
    counseling: [{ title: "Steroid safety", content: "Avoid the face and skin folds; take breaks after 2 weeks of continuous use." }],
    mips: [130],
    followUp: "Return in 6 weeks; consider dupilumab if not controlled.",
    pastMedicalHistory: ["Atopic dermatitis", "Allergic rhinitis"],
    dataReviewed: null,
    patientInstructions: "Moisturize within 3 minutes of bathing. Use the ointment only on red, itchy areas.",
  },
  {
    key: "psoriasis",
    practices: ["dermatology"],
    appointmentTypes: ["follow_up", "new_patient"],
    reason: "Psoriasis follow-up",
    chiefComplaint: { title: "Psoriasis", description: "{first} follows up for plaque psoriasis on the elbows, knees and scalp; partial response to clobetasol; mild joint stiffness in the mornings." },
    historicalSummary: "{first} is a {age}-year-old {person} with plaque psoriasis for 8 years.",
    ros: "Positive for morning stiffness under 30 minutes. Negative for joint swelling and eye redness.",
    normalExams: ["constitutional", "musculoskeletal"],
    findings: [{ title: "Skin", description: "Well-demarcated erythematous plaques with silvery scale on the extensor elbows and knees and the occipital scalp; about 6% BSA. Nail pitting on 3 fingernails." }],
    impressions: [
      {
        name: "Psoriasis vulgaris",
        dx: ["L40.0"],
        summary: "Moderate plaque psoriasis, about 6% BSA, with nail involvement.",
        morphology: "Erythematous plaques with silvery scale",
        bodyLocations: ["Elbows", "Knees", "Scalp"],
        dxStatus: "Stable",
        dxComplexity: "Chronic illness with exacerbation",
        isNew: false,
        ddx: "Psoriatic arthritis to be screened",
        plans: [
          { title: "Topical", fullText: "Clobetasol 0.05% cream twice daily for 2 weeks, then weekends only." },
          { title: "Systemic", fullText: "Discussed biologic therapy; baseline labs and TB screening if the patient elects to start." },
          { title: "Screening", fullText: "PEST questionnaire for psoriatic arthritis; rheumatology referral if positive." },
        ],
        assessments: [
          { name: "BSA", value: "6%" },
          { name: "PGA", value: "3 (moderate)" },
        ],
      },
    ],
    drugs: ["clobetasol"],
    tests: [],
    procedures: [],
    emLevel: 4,
    counseling: [{ title: "Comorbidities", content: "Discussed cardiovascular risk and metabolic syndrome associated with psoriasis." }],
    mips: [130, 226],
    followUp: "Return in 3 months.",
    pastMedicalHistory: ["Psoriasis", "Hyperlipidemia"],
    dataReviewed: null,
    patientInstructions: "Apply clobetasol only to plaques, not the face or groin.",
  },
  {
    key: "seborrheic-keratosis",
    practices: ["dermatology"],
    appointmentTypes: ["skin_check", "follow_up"],
    reason: "Annual skin check",
    chiefComplaint: { title: "Skin check", description: "{first} presents for an annual full body skin examination and asks about several stuck-on brown growths on the trunk." },
    historicalSummary: "{first} is a {age}-year-old {person} with a history of sun exposure, here for routine skin cancer screening.",
    ros: "Negative for new, changing or bleeding lesions.",
    normalExams: ["constitutional"],
    findings: [{ title: "Full body skin exam", description: "Multiple waxy, stuck-on tan-brown papules on the trunk. No suspicious pigmented lesions. Mild solar lentigines on the forearms." }],
    impressions: [
      {
        name: "Seborrheic keratoses",
        dx: ["L82.1"],
        summary: "Benign seborrheic keratoses; reassurance given.",
        morphology: "Waxy stuck-on papules",
        bodyLocations: ["Chest", "Back"],
        dxStatus: "Stable",
        dxComplexity: "Self-limited or minor problem",
        isNew: false,
        plans: [{ title: "Reassurance", fullText: "Benign; removal is cosmetic and not covered. Return if a lesion changes or bleeds." }],
        assessments: [],
      },
      {
        name: "Screening for skin cancer",
        dx: ["Z12.83"],
        summary: "Full skin exam without suspicious lesions.",
        morphology: null,
        bodyLocations: [],
        dxStatus: "Stable",
        dxComplexity: "Preventive",
        isNew: false,
        plans: [{ title: "Surveillance", fullText: "Annual full body skin exam; monthly self-exams." }],
        assessments: [],
      },
    ],
    drugs: [],
    tests: [],
    procedures: [],
    emLevel: 2,
    counseling: [{ title: "Sun protection", content: "Daily SPF 30+ and protective clothing." }],
    mips: [137],
    followUp: "Return in 12 months for a skin check.",
    pastMedicalHistory: ["Seborrheic keratoses"],
    dataReviewed: null,
    patientInstructions: "Check your skin monthly and report any changing spots.",
  },
  {
    key: "rosacea",
    practices: ["dermatology"],
    appointmentTypes: ["new_patient", "follow_up", "telehealth"],
    reason: "Facial redness",
    chiefComplaint: { title: "Facial redness", description: "{first} reports persistent redness of the cheeks and nose with intermittent bumps, worse with wine and hot drinks." },
    historicalSummary: "{first} is a {age}-year-old {person} with papulopustular rosacea.",
    ros: "Negative for eye irritation, joint pain and photosensitivity.",
    normalExams: ["constitutional"],
    findings: [{ title: "Face", description: "Centrofacial erythema with telangiectasias and scattered papules and pustules on the cheeks. No comedones." }],
    impressions: [
      {
        name: "Rosacea",
        dx: ["L71.9"],
        summary: "Papulopustular rosacea, mild to moderate.",
        morphology: "Erythema, papules, pustules",
        bodyLocations: ["Cheeks", "Nose"],
        dxStatus: "New",
        dxComplexity: "Chronic illness",
        isNew: true,
        ddx: "Acne vulgaris; seborrheic dermatitis; lupus",
        plans: [{ title: "Topical", fullText: "Metronidazole 0.75% gel twice daily.", location: "Face" }],
        assessments: [{ name: "Severity", value: "Mild to moderate" }],
      },
    ],
    drugs: ["metronidazoleGel"],
    tests: [],
    procedures: [],
    emLevel: 3,
    counseling: [{ title: "Triggers", content: "Identify and avoid triggers: alcohol, spicy food, heat, sun." }],
    mips: [130],
    followUp: "Return in 8 weeks.",
    pastMedicalHistory: ["No significant past medical history"],
    dataReviewed: null,
    patientInstructions: "Use a gentle cleanser and daily mineral sunscreen.",
  },
  {
    key: "warts",
    pediatric: true,
    practices: ["dermatology", "primary"],
    appointmentTypes: ["procedure", "follow_up"],
    reason: "Warts on hands",
    chiefComplaint: { title: "Warts", description: "{first} has several warts on the fingers for 6 months despite over-the-counter salicylic acid." },
    historicalSummary: "{first} is a {age}-year-old {person} with common warts of the hands.",
    ros: "Negative for other skin lesions.",
    normalExams: ["constitutional"],
    findings: [{ title: "Hands", description: "Four verrucous papules with thrombosed capillaries on the right index and middle fingers." }],
    impressions: [
      {
        name: "Viral warts",
        dx: ["B07.9"],
        summary: "Four common warts treated with cryotherapy.",
        morphology: "Verrucous papules",
        bodyLocations: ["Right index finger", "Right middle finger"],
        dxStatus: "Stable",
        dxComplexity: "Self-limited or minor problem",
        isNew: false,
        plans: [{ title: "Cryotherapy", fullText: "Liquid nitrogen, 2 freeze-thaw cycles to 4 warts after verbal consent.", location: "Right hand" }],
        assessments: [{ name: "Lesions treated", value: "4" }],
      },
    ],
    drugs: [],
    tests: [],
    procedures: [{ code: "17110", modifiers: [], units: 1, dx: ["B07.9"] }],
    emLevel: 2,
    counseling: [{ title: "Home care", content: "Pare and apply salicylic acid between treatments; may need 2-3 sessions." }],
    mips: [],
    followUp: "Return in 3-4 weeks for repeat cryotherapy if needed.",
    pastMedicalHistory: ["No significant past medical history"],
    dataReviewed: null,
    patientInstructions: "Blisters may form; do not pop them.",
  },
  {
    key: "basal-cell",
    practices: ["dermatology"],
    appointmentTypes: ["procedure", "follow_up"],
    reason: "Non-healing spot on nose",
    chiefComplaint: { title: "Non-healing spot", description: "{first} has a pearly bump on the nose that bleeds with minor trauma and has not healed for 3 months." },
    historicalSummary: "{first} is a {age}-year-old {person} with fair skin and a prior basal cell carcinoma on the back.",
    ros: "Negative for weight loss and new lymph node swelling.",
    normalExams: ["constitutional"],
    findings: [{ title: "Nose", description: "6 mm pearly papule with rolled border and arborizing telangiectasias on the right nasal ala." }],
    impressions: [
      {
        name: "Basal cell carcinoma of skin of nose",
        dx: ["C44.311"],
        summary: "Clinically and dermoscopically consistent with nodular BCC; punch biopsy taken.",
        morphology: "Pearly papule with telangiectasias",
        bodyLocations: ["Right nasal ala"],
        dxStatus: "New",
        dxComplexity: "Undiagnosed new problem with uncertain prognosis",
        isNew: true,
        plans: [
          { title: "Punch biopsy", fullText: "3 mm punch biopsy after informed consent and 1% lidocaine with epinephrine; one 5-0 nylon suture.", location: "Right nasal ala" },
          { title: "Referral", fullText: "Mohs surgery referral if pathology confirms BCC." },
        ],
        assessments: [{ name: "Size", value: "6 mm" }],
      },
    ],
    drugs: ["mupirocin"],
    tests: ["punchBiopsy"],
    procedures: [{ code: "11104", modifiers: [], units: 1, dx: ["C44.311"] }],
    emLevel: 3,
    counseling: [{ title: "Skin cancer", content: "Explained BCC rarely spreads but grows locally; Mohs offers the highest cure rate on the face." }],
    mips: [137, 440, 374],
    followUp: "Suture removal in 7 days; results call within 10 days.",
    pastMedicalHistory: ["Basal cell carcinoma of the back (excised)"],
    dataReviewed: "Prior pathology report from the back excision reviewed.",
    patientInstructions: "Keep the suture dry for 24 hours, then clean daily and apply ointment.",
  },
  {
    key: "onychomycosis",
    practices: ["dermatology", "primary"],
    appointmentTypes: ["follow_up", "new_patient"],
    reason: "Thick toenails",
    chiefComplaint: { title: "Toenail changes", description: "{first} reports thick, yellow, crumbly great toenails for over a year, uncomfortable in shoes." },
    historicalSummary: "{first} is a {age}-year-old {person} with onychomycosis of both great toenails.",
    ros: "Negative for foot pain at rest and skin breakdown.",
    normalExams: ["constitutional"],
    findings: [{ title: "Feet", description: "Bilateral great toenails thickened and yellow with subungual debris; interdigital scaling of the fourth web spaces." }],
    impressions: [
      {
        name: "Onychomycosis",
        dx: ["B35.1"],
        summary: "KOH positive; candidate for oral terbinafine.",
        morphology: "Dystrophic thickened nails",
        bodyLocations: ["Left great toenail", "Right great toenail"],
        dxStatus: "New",
        dxComplexity: "Chronic illness",
        isNew: true,
        plans: [
          { title: "Oral antifungal", fullText: "Terbinafine 250 mg daily for 12 weeks; baseline liver enzymes reviewed." },
          { title: "Topical", fullText: "Ketoconazole 2% cream to web spaces daily." },
        ],
        assessments: [{ name: "Nails involved", value: "2" }],
      },
    ],
    drugs: ["terbinafine", "ketoconazole"],
    tests: ["koh"],
    procedures: [],
    emLevel: 3,
    counseling: [{ title: "Expectations", content: "Nails take 12-18 months to grow out clear even after successful treatment." }],
    mips: [130],
    followUp: "Return in 12 weeks.",
    pastMedicalHistory: ["Tinea pedis"],
    dataReviewed: "Liver enzymes from last month within normal limits.",
    patientInstructions: "Keep feet dry; disinfect or replace old footwear.",
  },
];

export const ALLERGIES = ["No known drug allergies", "Penicillin (hives)", "Sulfa drugs (rash)", "Codeine (nausea)", "Latex (contact dermatitis)", "Shellfish"] as const;
export const SOCIAL_HISTORY = [
  "Never smoker. Drinks 1-2 glasses of wine per week. Works as a teacher.",
  "Former smoker, quit 10 years ago (15 pack-years). No alcohol. Retired.",
  "Never smoker. Social alcohol use. Office worker; exercises 3 times a week.",
  "Never smoker. No alcohol. Nurse working night shifts.",
  "Current smoker, half a pack per day; interested in quitting. Construction worker.",
  "Never smoker. Drinks 2-3 beers on weekends. Software engineer.",
] as const;
export const FAMILY_HISTORY = [
  "Mother: hypertension, type 2 diabetes. Father: coronary artery disease at 62.",
  "Father: melanoma at 58. Mother: healthy.",
  "Mother: breast cancer at 55. Father: hyperlipidemia.",
  "Non-contributory.",
  "Sister: psoriasis. Father: type 2 diabetes.",
] as const;
export const SURGICAL_HISTORY = ["Appendectomy (2009)", "Cholecystectomy (2016)", "Tonsillectomy (childhood)", "Cesarean section (2014)", "Knee arthroscopy (2019)", "None"] as const;

export const CANCEL_REASONS = ["Patient request", "Scheduling conflict", "Patient ill", "Transportation issue", "Provider unavailable", "Weather", "Insurance not verified"] as const;

export const ADDENDUM_TEXTS = [
  "Pathology reviewed with the patient by phone; plan unchanged.",
  "Lab results returned within normal limits; patient notified through the portal.",
  "Corrected medication dose in the plan after pharmacy call.",
  "Patient called to report improvement; follow-up kept as scheduled.",
] as const;

export const STICKY_NOTES = [
  "Prefers morning appointments.",
  "Hard of hearing: face the patient when speaking.",
  "Needs a Spanish interpreter.",
  "Prior authorization pending for biologic.",
  "Call the daughter (health care proxy) with results.",
  "Uses the patient portal; send results there.",
  "",
] as const;

/** Fills the placeholders of a scenario text. */
export function renderText(text: string, context: { first: string; age: number; person: string; they: string; their: string }): string {
  return text
    .replaceAll("{first}", context.first)
    .replaceAll("{age}", String(context.age))
    .replaceAll("{person}", context.person)
    .replaceAll("{they}", context.they)
    .replaceAll("{their}", context.their);
}

/** The E/M CPT code for an office visit of a given level, or the preventive code for the age. */
export function emCode(level: ClinicalScenario["emLevel"], isNewPatient: boolean, age: number): string {
  if (level === "preventive") {
    const band = age < 1 ? 1 : age < 5 ? 2 : age < 12 ? 3 : age < 18 ? 4 : age < 40 ? 5 : age < 65 ? 6 : 7;
    return `99${isNewPatient ? 38 : 39}${band}`;
  }
  return isNewPatient ? `9920${level}` : `9921${level}`;
}
