import AxeBuilder from "@axe-core/playwright";
import { expect, type Frame, type FrameLocator, type Page } from "@playwright/test";

// What the specs share: the URLs of the servers the global setup started,
// the sandbox identities, and opening the app the way a clinician meets it,
// inside the EHR host page.

export const ORG_A = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
export const ORG_B = "8c4e2d19-7a36-4b5f-a0e1-9d8c7b6a5f42";
export const ORG_C = "d5a7c3b1-2e4f-4a6b-8c9d-0e1f2a3b4c53";

/** The sandbox data key (test code only, never a browser): reads and writes the emulator directly to check the app, or to act as another client. */
const DATA_KEY = "svc_dev_ak_5a0d1e2f3a4b5c6d7e8f90a1b2c3d4e5";

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

/** The same, for the app opened at its own address (standalone). */
export async function expectAccessibleOn(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const blocking = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  expect(blocking.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.length})`)).toEqual([]);
}

export async function saveScreenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
}

/** A `/_sandbox/` control: plain JSON in and out; fails the test on a non-2xx answer. */
export async function sandbox<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${emulatorUrl()}/_sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} /_sandbox${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : {}) as T;
}

/** A call to the BFF as the app makes it, with a fresh host token for the given context (a write's token is spent: one per call). */
export async function callApp(method: string, path: string, context: { organizationId: string; userId: string; noteId?: string }, body?: unknown): Promise<unknown> {
  const { token } = await sandbox<{ token: string }>("POST", "/host-token", context);
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${appUrl()}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** The emulator's clock now (epoch ms): the suite's "now", pinned to the project's instant (fixtures.ts). */
export async function sandboxNow(): Promise<number> {
  const { now } = await sandbox<{ now: string }>("GET", "/clock");
  return Date.parse(now);
}

/** Back to the seeded state (data, faults, clock, webhook settings), then webhooks to the BFF again, as the global setup left them. */
export async function resetSandbox(): Promise<void> {
  await sandbox("POST", "/reset");
  await sandbox("POST", "/webhooks", { url: `${appUrl()}/webhooks/clinic`, headerStyle: "standard" });
}

/** A data request to the emulator as the BFF would make it (org A by default); answers `data`. */
export async function upstream<T>(path: string, organizationId = ORG_A, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${DATA_KEY}`, "x-organization-id": organizationId };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${emulatorUrl()}${path}`, { method: init.method ?? "GET", headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

/** The `/api/…` calls the app made (method and path), recorded from now on. */
export function recordApiCalls(page: Page): { method: string; path: string }[] {
  const calls: { method: string; path: string }[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/")) calls.push({ method: request.method(), path: url.pathname });
  });
  return calls;
}

/**
 * The same, read later, keeping only calls sent by documents still open
 * then: a page being left may send a keepalive request as it goes (a note's
 * draft, issue 35), which is not what the page opened next did.
 */
export function recordApiCallsOfOpenDocuments(page: Page): () => { method: string; path: string }[] {
  const calls: { method: string; path: string; frame: Frame }[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/")) calls.push({ method: request.method(), path: url.pathname, frame: request.frame() });
  });
  return () => calls.filter((call) => !call.frame.isDetached()).map(({ method, path }) => ({ method, path }));
}
