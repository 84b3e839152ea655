import AxeBuilder from "@axe-core/playwright";
import { expect, type FrameLocator, type Page } from "@playwright/test";

// What the specs share: the URLs of the servers the global setup started,
// the sandbox identities, and opening the app the way a clinician meets it,
// inside the EHR host page.

export const ORG_A = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
export const ORG_B = "8c4e2d19-7a36-4b5f-a0e1-9d8c7b6a5f42";
export const ORG_C = "d5a7c3b1-2e4f-4a6b-8c9d-0e1f2a3b4c53";

export function emulatorUrl(): string {
  const url = process.env.E2E_EMULATOR_URL;
  if (!url) throw new Error("E2E_EMULATOR_URL is not set: run through playwright.config.ts");
  return url;
}

export function appUrl(): string {
  const url = process.env.E2E_APP_URL;
  if (!url) throw new Error("E2E_APP_URL is not set: run through playwright.config.ts");
  return url;
}

export interface SandboxUser {
  id: string;
  displayName: string;
  roles: string[];
  hidden: boolean;
}

export interface SandboxNote {
  id: string;
  status: string;
  patientId: string;
  patientName: string;
  assignedProviderIds: string[];
}

export async function sandboxUsers(organizationId: string): Promise<SandboxUser[]> {
  const response = await fetch(`${emulatorUrl()}/_sandbox/ehr/${organizationId}/users`);
  return ((await response.json()) as { users: SandboxUser[] }).users;
}

export async function sandboxNotes(organizationId: string): Promise<SandboxNote[]> {
  const response = await fetch(`${emulatorUrl()}/_sandbox/ehr/${organizationId}/notes`);
  return ((await response.json()) as { notes: SandboxNote[] }).notes;
}

export async function userWithRole(organizationId: string, role: string): Promise<SandboxUser> {
  const user = (await sandboxUsers(organizationId)).find((candidate) => candidate.roles.includes(role) && !candidate.hidden);
  if (!user) throw new Error(`no ${role} in ${organizationId}`);
  return user;
}

/** Opens the EHR host page with the given selection and returns the app's frame. */
export async function openInHost(page: Page, selection: { org?: string; user?: string; patient?: string; note?: string; width?: string } = {}): Promise<FrameLocator> {
  const query = new URLSearchParams(Object.entries(selection).filter((entry): entry is [string, string] => entry[1] !== undefined));
  await page.goto(`${emulatorUrl()}/_sandbox/host?${query.toString()}`);
  return page.frameLocator("iframe#tandem-app");
}

/** No serious or critical axe violations inside the app's frame. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).include("iframe#tandem-app").analyze();
  const blocking = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  expect(blocking.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.length})`)).toEqual([]);
}

export async function saveScreenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
}
