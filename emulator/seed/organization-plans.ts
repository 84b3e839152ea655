// What each sandbox organization looks like before any random choice: the
// fixed identities of DESIGN.md "The sandbox identities", its facilities and
// zones, and the volumes per scale.
import { KNOWN_SCOPES, type InstallationStatus } from "#contract/clinic-api/installation.ts";
import { ORG_A_ID, ORG_B_ID, ORG_C_ID, ORG_D_ID, ORG_E_ID, ORG_F_ID, REQUIRED_SCOPES } from "../world/identities.ts";
import type { EhrKind } from "../world/types.ts";
import type { Practice } from "./clinical-catalog.ts";

/** Installations list only the optional scopes they grant, not the manifest's required ones. */
const OPTIONAL_SCOPES: string[] = KNOWN_SCOPES.filter((scope) => !(REQUIRED_SCOPES as readonly string[]).includes(scope));

export type Scale = "default" | "large";

export interface FacilityPlan {
  name: string;
  timezone: string;
  specialty: string;
  practice: Practice;
  isVisible: boolean;
  /** A small outpost: it gets the DST-crossing template and one clinician, not a share of everyone's rota. */
  satellite: boolean;
  /** A city of LOCALITIES, and the facility's ZIP or postcode there. */
  city: string;
  zipcode: string;
}

export interface OrganizationPlan {
  id: string;
  name: string;
  kind: EhrKind;
  facilities: FacilityPlan[];
  /** Index into `facilities` of the one that gets the Sunday 01:00-04:00 template crossing the DST change. */
  dstFacilityIndex: number;
  providerCount: number;
  patientCount: number;
  noteCount: number;
  /** Share of free grid points that get booked (before the taper into the future). */
  fillRatio: number;
  installation: {
    status: InstallationStatus;
    grantedPermissions: string[];
    settings: Record<string, unknown>;
    installedDaysAgo: number;
    updatedDaysAgo: number;
  };
}

const facility = (
  name: string,
  timezone: string,
  specialty: string,
  practice: Practice,
  [city, zipcode]: [string, string],
  { isVisible = true, satellite = false }: { isVisible?: boolean; satellite?: boolean } = {},
): FacilityPlan => ({ name, timezone, specialty, practice, isVisible, satellite, city, zipcode });

const NY = "America/New_York";
const CHI = "America/Chicago";
const SYD = "Australia/Sydney";
const LHI = "Australia/Lord_Howe";
const LA = "America/Los_Angeles";
const PHX = "America/Phoenix";
const MEL = "Australia/Melbourne";
const BNE = "Australia/Brisbane";
const ADL = "Australia/Adelaide";
const DEN = "America/Denver";

function orgAFacilities(scale: Scale): FacilityPlan[] {
  const core = [
    facility("Riverside Health - Upper West Side", NY, "Family Medicine", "primary", ["New York", "10024"]),
    facility("Riverside Dermatology - Lincoln Park", CHI, "Dermatology", "dermatology", ["Chicago", "60614"]),
    facility("Riverside Health - Chelsea (closed)", NY, "Family Medicine", "primary", ["New York", "10011"], { isVisible: false }),
  ];
  if (scale === "default") return core;
  return [
    ...core,
    facility("Riverside Health - Park Slope", NY, "Family Medicine", "primary", ["Brooklyn", "11215"]),
    facility("Riverside Health - Astoria", NY, "Internal Medicine", "primary", ["Astoria", "11102"]),
    facility("Riverside Dermatology - Midtown", NY, "Dermatology", "dermatology", ["New York", "10018"]),
    facility("Riverside Health - Harlem", NY, "Family Medicine", "primary", ["New York", "10027"]),
    facility("Riverside Health - Lakeview", CHI, "Internal Medicine", "primary", ["Chicago", "60657"]),
    facility("Riverside Health - Evanston", CHI, "Family Medicine", "primary", ["Evanston", "60201"]),
    facility("Riverside Dermatology - Oak Park", CHI, "Dermatology", "dermatology", ["Oak Park", "60302"]),
  ];
}

function orgBFacilities(scale: Scale): FacilityPlan[] {
  const core = [
    facility("Harbourside Medical - Sydney CBD", SYD, "General Practice", "primary", ["Sydney", "2000"]),
    facility("Harbourside Skin Clinic - Parramatta", SYD, "Dermatology", "dermatology", ["Parramatta", "2150"]),
    facility("Lord Howe Island Medical Centre", LHI, "General Practice", "primary", ["Lord Howe Island", "2898"], { satellite: true }),
  ];
  if (scale === "default") return core;
  return [
    ...core,
    facility("Harbourside Medical - Newtown", SYD, "General Practice", "primary", ["Newtown", "2042"]),
    facility("Harbourside Medical - Mosman", SYD, "General Practice", "primary", ["Mosman", "2088"]),
    facility("Harbourside Skin Clinic - Bondi", SYD, "Dermatology", "dermatology", ["Bondi", "2026"]),
    facility("Harbourside Medical - Parramatta", SYD, "General Practice", "primary", ["Parramatta", "2150"]),
  ];
}

// Orgs D, E and F exist at the large scale only (the default world keeps A, B
// and C, byte for byte): with A and B, five installed organizations of a
// clinic-group size for the load benchmark. Their zones add a zone without
// DST (Phoenix, Brisbane) and a half-hour offset (Adelaide).
function orgDFacilities(): FacilityPlan[] {
  return [
    facility("Cascade Family Health - Capitol Hill", LA, "Family Medicine", "primary", ["Seattle", "98122"]),
    facility("Cascade Family Health - Wallingford", LA, "Internal Medicine", "primary", ["Seattle", "98103"]),
    facility("Cascade Dermatology - Bellevue", LA, "Dermatology", "dermatology", ["Bellevue", "98004"]),
    facility("Cascade Family Health - Pearl District", LA, "Family Medicine", "primary", ["Portland", "97209"]),
    facility("Cascade Family Health - Hawthorne", LA, "Family Medicine", "primary", ["Portland", "97214"]),
    facility("Cascade Family Health - Midtown Phoenix", PHX, "Family Medicine", "primary", ["Phoenix", "85012"]),
  ];
}

function orgEFacilities(): FacilityPlan[] {
  return [
    facility("Southern Cross Medical - Melbourne CBD", MEL, "General Practice", "primary", ["Melbourne", "3000"]),
    facility("Southern Cross Medical - Richmond", MEL, "General Practice", "primary", ["Richmond", "3121"]),
    facility("Southern Cross Skin - Carlton", MEL, "Dermatology", "dermatology", ["Melbourne", "3053"]),
    facility("Southern Cross Medical - Brisbane City", BNE, "General Practice", "primary", ["Brisbane", "4000"]),
    facility("Southern Cross Medical - Adelaide East End", ADL, "General Practice", "primary", ["Adelaide", "5000"]),
  ];
}

function orgFFacilities(): FacilityPlan[] {
  return [
    facility("Lone Star Family Medicine - Uptown Dallas", CHI, "Family Medicine", "primary", ["Dallas", "75204"]),
    facility("Lone Star Family Medicine - Oak Lawn", CHI, "Internal Medicine", "primary", ["Dallas", "75219"]),
    facility("Lone Star Dermatology - Montrose", CHI, "Dermatology", "dermatology", ["Houston", "77006"]),
    facility("Lone Star Family Medicine - The Heights", CHI, "Family Medicine", "primary", ["Houston", "77008"]),
    facility("Lone Star Family Medicine - El Paso Central", DEN, "Family Medicine", "primary", ["El Paso", "79902"]),
  ];
}

function largeScaleOnlyPlans(): OrganizationPlan[] {
  return [
    {
      id: ORG_D_ID,
      name: "Cascade Family Health",
      kind: "A",
      facilities: orgDFacilities(),
      dstFacilityIndex: 0,
      providerCount: 220,
      patientCount: 2200,
      noteCount: 90,
      fillRatio: 0.3,
      installation: {
        status: "active",
        grantedPermissions: OPTIONAL_SCOPES,
        settings: { holdMinutes: 10, defaultSlotLengthMinutes: 20, showPatientAvatars: true },
        installedDaysAgo: 265,
        updatedDaysAgo: 9,
      },
    },
    {
      id: ORG_E_ID,
      name: "Southern Cross Medical",
      kind: "B",
      facilities: orgEFacilities(),
      dstFacilityIndex: 0,
      providerCount: 200,
      patientCount: 2000,
      noteCount: 80,
      fillRatio: 0.3,
      installation: {
        status: "active",
        grantedPermissions: OPTIONAL_SCOPES,
        settings: { holdMinutes: 5, defaultSlotLengthMinutes: 15, showPatientAvatars: false },
        installedDaysAgo: 96,
        updatedDaysAgo: 4,
      },
    },
    {
      id: ORG_F_ID,
      name: "Lone Star Family Medicine",
      kind: "A",
      facilities: orgFFacilities(),
      dstFacilityIndex: 0,
      providerCount: 200,
      patientCount: 2000,
      noteCount: 80,
      fillRatio: 0.3,
      installation: {
        status: "active",
        grantedPermissions: OPTIONAL_SCOPES,
        settings: { holdMinutes: 10, defaultSlotLengthMinutes: 20, showPatientAvatars: true },
        installedDaysAgo: 330,
        updatedDaysAgo: 15,
      },
    },
  ];
}

export function organizationPlans(scale: Scale): OrganizationPlan[] {
  const large = scale === "large";
  const plans: OrganizationPlan[] = [
    {
      id: ORG_A_ID,
      name: "Riverside Health Partners",
      kind: "A",
      facilities: orgAFacilities(scale),
      dstFacilityIndex: 0,
      providerCount: large ? 310 : 20,
      patientCount: large ? 3200 : 340,
      noteCount: large ? 120 : 18,
      fillRatio: large ? 0.3 : 0.6,
      installation: {
        status: "active",
        grantedPermissions: OPTIONAL_SCOPES,
        settings: { holdMinutes: 10, defaultSlotLengthMinutes: 20, showPatientAvatars: true },
        installedDaysAgo: 412,
        updatedDaysAgo: 37,
      },
    },
    {
      id: ORG_B_ID,
      name: "Harbourside Medical Group",
      kind: "B",
      facilities: orgBFacilities(scale),
      dstFacilityIndex: 2,
      providerCount: large ? 300 : 13,
      patientCount: large ? 3000 : 310,
      noteCount: large ? 100 : 16,
      fillRatio: large ? 0.3 : 0.6,
      installation: {
        status: "active",
        grantedPermissions: OPTIONAL_SCOPES.filter((scope) => scope !== "read:patients"),
        settings: { holdMinutes: 5, defaultSlotLengthMinutes: 15, showPatientAvatars: false },
        installedDaysAgo: 188,
        updatedDaysAgo: 12,
      },
    },
    {
      // Small but complete: every kind of record, few of each.
      id: ORG_C_ID,
      name: "Front Range Family Clinic",
      kind: "A",
      facilities: [facility("Front Range Family Clinic - Capitol Hill", "America/Denver", "Family Medicine", "primary", ["Denver", "80203"])],
      dstFacilityIndex: 0,
      providerCount: 12,
      patientCount: 120,
      noteCount: 12,
      fillRatio: 0.3,
      installation: {
        status: "uninstalled",
        grantedPermissions: OPTIONAL_SCOPES,
        settings: { holdMinutes: 10, defaultSlotLengthMinutes: 30, showPatientAvatars: true },
        installedDaysAgo: 540,
        updatedDaysAgo: 21,
      },
    },
  ];
  return large ? [...plans, ...largeScaleOnlyPlans()] : plans;
}
