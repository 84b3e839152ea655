import type { EhrKind } from "../../world/types.ts";
import type { PayerRecord } from "./billing-records.ts";

// Reference data of the billing seed: payers per EHR kind (kind A's clinics
// are in the US, kind B's in Australia), modifier names, the NDCs of the
// drug and vaccine codes the visit scenarios bill, and the 835 codes the
// ERA lines use.

const payer = (name: string, code: string, planName: string, policyType: string, allowedFactor: number, copayCents: number, coinsurance: number): PayerRecord => ({
  name,
  code,
  planName,
  policyType,
  allowedFactor,
  copayCents,
  coinsurance,
});

/** Commercial and public payers with their usual payer ids (835 N1*PR). */
export const PAYERS: Readonly<Record<EhrKind, { commercial: readonly PayerRecord[]; senior: PayerRecord; supplemental: readonly PayerRecord[]; workersCompensation: PayerRecord }>> = {
  A: {
    commercial: [
      payer("Aetna", "60054", "Aetna Choice POS II", "PPO", 1.28, 3000, 0),
      payer("UnitedHealthcare", "87726", "UnitedHealthcare Choice Plus", "PPO", 1.22, 2500, 0),
      payer("Empire BlueCross BlueShield", "00803", "Empire Pathway Enhanced", "EPO", 1.18, 2500, 0),
      payer("Blue Cross Blue Shield of Illinois", "00621", "Blue Choice PPO", "PPO", 1.2, 3000, 0),
      payer("Cigna", "62308", "Cigna Open Access Plus", "HMO", 1.25, 2000, 0),
      payer("NY State Medicaid", "MCDNY", "Medicaid Fee-for-Service", "Medicaid", 0.72, 0, 0),
    ],
    senior: payer("Medicare Part B", "13202", "Original Medicare Part B", "Medicare", 1, 0, 0.2),
    supplemental: [
      payer("AARP Medicare Supplement (UnitedHealthcare)", "36273", "Plan G", "Medigap", 1, 0, 0),
      payer("Humana", "61101", "Humana Medicare Supplement Plan F", "Medigap", 1, 0, 0),
    ],
    workersCompensation: payer("The Hartford (Workers' Compensation)", "39026", "Workers' Compensation", "Workers Compensation", 1.35, 0, 0),
  },
  B: {
    commercial: [
      payer("Bupa", "BUP", "Bupa Top Hospital and Extras", "Hospital and Extras", 1.1, 0, 0.1),
      payer("Medibank Private", "MBP", "Medibank Gold Complete", "Hospital and Extras", 1.12, 0, 0.1),
      payer("HCF", "HCF", "HCF Premium Hospital", "Hospital", 1.08, 0, 0.1),
      payer("nib", "NIB", "nib Top Hospital", "Hospital", 1.05, 0, 0.1),
    ],
    senior: payer("Medicare Australia", "MCA", "Medicare Bulk Bill", "Bulk Bill", 0.85, 0, 0),
    supplemental: [payer("Department of Veterans' Affairs", "DVA", "DVA Gold Card", "Gold Card", 1, 0, 0)],
    workersCompensation: payer("icare NSW (Workers Insurance)", "ICR", "Workers Insurance", "Workers Compensation", 1.3, 0, 0),
  },
};

export const MODIFIER_NAMES: Readonly<Record<string, string>> = {
  "25": "Significant, separately identifiable E/M service on the same day",
  "59": "Distinct procedural service",
  "95": "Synchronous telemedicine service via real-time audio and video",
  QW: "CLIA-waived test",
};

/** Drug and vaccine codes are billed with their NDC (qualifier, quantity, description). */
export const NDC_BY_CODE: Readonly<Record<string, { ndcCode: string; ndcQualifier: string; ndcQuantity: string; description: string }>> = {
  J3301: { ndcCode: "00003029305", ndcQualifier: "ML", ndcQuantity: "1", description: "Kenalog-10 (triamcinolone acetonide) 10 mg/mL injectable suspension, 5 mL vial" },
  "90686": { ndcCode: "49281042150", ndcQualifier: "UN", ndcQuantity: "1", description: "Fluzone Quadrivalent 0.5 mL single-dose prefilled syringe" },
};

/** Codes that are HCPCS Level II rather than CPT. */
export const isHcpcs = (code: string): boolean => /^[A-Z]\d{4}$/.test(code);

/** ICD-10 as each kind's country codes it. */
export const CODE_REVISION: Readonly<Record<EhrKind, string>> = { A: "ICD-10-CM", B: "ICD-10-AM" };

/** CLIA certificate numbers (10 characters, the 3rd a D) of the clinics' waived labs. */
export const cliaNumberFor = (kind: EhrKind, index: number): string => (kind === "A" ? `33D${String(2087411 + index * 7919).slice(0, 7)}` : `99D${String(4410265 + index * 6113).slice(0, 7)}`);

/** 835 CLP02 values the seed uses: processed as primary, as secondary, denied, reversal of a previous payment. */
export const CLP02 = { primary: "1", secondary: "2", denied: "4", primaryForwarded: "19", reversal: "22" } as const;

/** Denial reasons (CARC) a payer gives with CO. */
export const DENIAL_REASONS = ["50", "197", "16", "96"] as const;
