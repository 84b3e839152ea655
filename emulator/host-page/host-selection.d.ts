// Types of `host-selection.js` (plain JavaScript, shared by the emulator and the browser).

/** One entry of `GET /_sandbox/ehr/{organizationId}/users`. */
export interface SandboxUser {
  id: string;
  firstName: string;
  lastName: string;
  displayName: string;
  title: string;
  roles: string[];
  hidden: boolean;
  active: boolean;
}

/** One entry of `GET /_sandbox/ehr/{organizationId}/notes`. */
export interface SandboxNote {
  id: string;
  status: string;
  visitDate: string;
  patientId: string;
  patientName: string;
  facilityId: string;
  facilityName: string;
  assignedProviderIds: string[];
  imageCount: number;
}

export interface HostFacility {
  id: string;
  name: string;
  timezone: string;
}

export interface HostOrganization {
  id: string;
  name: string;
  /** The sandbox letter (DESIGN.md "The sandbox identities"), null for any other organization. */
  letter: "A" | "B" | "C" | "D" | "E" | "F" | null;
  installationStatus: string;
  facilities: HostFacility[];
}

export type Width = "360" | "768" | "1024" | "full";

export interface Selection {
  organizationId: string;
  userId: string | null;
  patientId: string | null;
  noteId: string | null;
  width: Width;
}

export interface SelectionQuery {
  org?: string | null;
  user?: string | null;
  patient?: string | null;
  note?: string | null;
  width?: string | null;
}

export const WIDTHS: ReadonlyArray<{ value: Width; label: string }>;
export const DEFAULT_WIDTH: Width;
export const NONE: "none";

export function toRawId(value: unknown, prefix?: string): string | null;
export function resolveWidth(value: string | null | undefined): { width: Width; warning: string | null };
export function resolveOrganization(organizations: readonly HostOrganization[], value: string | null | undefined): { organizationId: string; warning: string | null };
export function defaultUser(users: readonly SandboxUser[]): SandboxUser | null;
export function defaultNote(notes: readonly SandboxNote[], userId: string | null): SandboxNote | null;
export function patientsOf(notes: readonly SandboxNote[]): Array<{ id: string; name: string }>;
export function resolveSelection(
  users: readonly SandboxUser[],
  notes: readonly SandboxNote[],
  query?: Pick<SelectionQuery, "user" | "patient" | "note">,
): { userId: string | null; patientId: string | null; noteId: string | null; warnings: string[] };
export function selectPatient(selection: Selection, notes: readonly SandboxNote[], patientId: string | null): Selection;
export function selectNote(selection: Selection, notes: readonly SandboxNote[], noteId: string | null): Selection;
export function selectionQuery(selection: Selection): string;
export function parseVisitDate(value: string): number;
export function formatWhen(epochMs: number, timeZone?: string | null): string;
export function noteLabel(note: SandboxNote, timeZone?: string | null): string;
export function organizationLabel(org: HostOrganization): string;
export function userLabel(user: SandboxUser): string;
