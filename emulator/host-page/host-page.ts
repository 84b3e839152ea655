import { readFileSync } from "node:fs";
import { Hono } from "hono";
import type { EmulatorSettings } from "../routes/route-deps.ts";
import type { ServiceState } from "../service/service-state.ts";
import { ORG_A_ID, ORG_B_ID, ORG_C_ID, ORG_D_ID, ORG_E_ID, ORG_F_ID } from "../world/identities.ts";
import {
  NONE,
  WIDTHS,
  noteLabel,
  organizationLabel,
  patientsOf,
  resolveOrganization,
  resolveSelection,
  resolveWidth,
  userLabel,
  type HostOrganization,
  type SandboxNote,
  type SandboxUser,
  type Selection,
  type SelectionQuery,
} from "./host-selection.js";

// `GET /_sandbox/host`: the EHR host page (DESIGN.md "The host bridge", "Its
// controls"). It embeds the app (`settings.appUrl`) in a cross-site iframe
// and answers the bridge from `host.js`, a plain browser module served from
// this folder as-is (no build step), like the other assets below. The page
// is rendered with its initial state (deep link resolved, picker lists of
// the initial organization) as JSON in `#host-initial-state`.

export interface HostPageDeps {
  state: ServiceState;
  settings: Pick<EmulatorSettings, "appUrl">;
  /** The sandbox controls: the picker lists are read from them exactly as the page's script reads them. */
  sandbox: { request(path: string): Response | Promise<Response> };
}

/** What the page embeds for its script (`#host-initial-state`). */
export interface HostInitialState {
  appUrl: string;
  appOrigin: string;
  organizations: HostOrganization[];
  selection: Selection;
  users: SandboxUser[];
  notes: SandboxNote[];
  warnings: string[];
}

const ASSETS: Record<string, { file: string; type: string }> = {
  "/host.js": { file: "host.js", type: "text/javascript; charset=utf-8" },
  "/host-bridge.js": { file: "host-bridge.js", type: "text/javascript; charset=utf-8" },
  "/host-selection.js": { file: "host-selection.js", type: "text/javascript; charset=utf-8" },
  "/host.css": { file: "host.css", type: "text/css; charset=utf-8" },
};

const LETTERS: Record<string, HostOrganization["letter"]> = { [ORG_A_ID]: "A", [ORG_B_ID]: "B", [ORG_C_ID]: "C", [ORG_D_ID]: "D", [ORG_E_ID]: "E", [ORG_F_ID]: "F" };

export function createHostPageRoutes(deps: HostPageDeps): Hono {
  const app = new Hono();

  for (const [path, asset] of Object.entries(ASSETS)) {
    // Read on each request: a sandbox page, and an edit shows without a restart.
    app.get(path, (c) =>
      c.body(readFileSync(new URL(`./${asset.file}`, import.meta.url), "utf8"), 200, {
        "Content-Type": asset.type,
        "Cache-Control": "no-cache",
        "X-Content-Type-Options": "nosniff",
      }),
    );
  }

  app.get("/host", async (c) => {
    const initial = await initialState(deps, {
      org: c.req.query("org"),
      user: c.req.query("user"),
      patient: c.req.query("patient"),
      note: c.req.query("note"),
      width: c.req.query("width"),
    });
    return c.html(renderHostPage(initial), 200, {
      "Cache-Control": "no-store",
      "Content-Security-Policy": contentSecurityPolicy(),
      "Referrer-Policy": "strict-origin-when-cross-origin",
      "X-Content-Type-Options": "nosniff",
    });
  });

  return app;
}

/**
 * Scripts, styles and fetches from the emulator only; no inline script (the
 * initial state is inert JSON). Frames: any http(s) page, so that tests can
 * navigate the iframe to a foreign origin to check the bridge's origin filter
 * (the bridge's own checks are what is under test, not the CSP).
 */
function contentSecurityPolicy(): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "frame-src http: https:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

function organizationsOf(state: ServiceState): HostOrganization[] {
  const letterOrder = (org: HostOrganization) => (org.letter === null ? "Z" : org.letter);
  return state
    .organizations()
    .map(({ ehr, installation }) => ({
      id: ehr.id,
      name: ehr.name,
      letter: LETTERS[ehr.id] ?? null,
      installationStatus: installation.status,
      facilities: ehr.facilities.map((facility) => ({ id: facility.id, name: facility.name, timezone: facility.timezone })),
    }))
    .sort((a, b) => letterOrder(a).localeCompare(letterOrder(b)) || a.name.localeCompare(b.name));
}

async function sandboxList<T>(deps: HostPageDeps, path: string, key: string): Promise<T[]> {
  const response = await deps.sandbox.request(path);
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  const body = (await response.json()) as Record<string, unknown>;
  return body[key] as T[];
}

export async function initialState(deps: HostPageDeps, query: SelectionQuery): Promise<HostInitialState> {
  const organizations = organizationsOf(deps.state);
  const org = resolveOrganization(organizations, query.org);
  const width = resolveWidth(query.width);
  const path = `/ehr/${encodeURIComponent(org.organizationId)}`;
  const [users, notes] = await Promise.all([
    sandboxList<SandboxUser>(deps, `${path}/users`, "users"),
    sandboxList<SandboxNote>(deps, `${path}/notes`, "notes"),
  ]);
  const picked = resolveSelection(users, notes, query);
  const appUrl = new URL(deps.settings.appUrl).href;
  return {
    appUrl,
    appOrigin: new URL(appUrl).origin,
    organizations,
    selection: { organizationId: org.organizationId, userId: picked.userId, patientId: picked.patientId, noteId: picked.noteId, width: width.width },
    users,
    notes,
    warnings: [org.warning, width.warning, ...picked.warnings].filter((warning): warning is string => warning !== null),
  };
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** JSON that is safe inside a `<script>` element: no `</script>`, no `<!--`, no line separators. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

function option(value: string, label: string, selected: boolean): string {
  return `<option value="${escapeHtml(value)}"${selected ? " selected" : ""}>${escapeHtml(label)}</option>`;
}

function renderHostPage(initial: HostInitialState): string {
  const { selection, organizations, users, notes } = initial;
  const org = organizations.find((candidate) => candidate.id === selection.organizationId);
  const timezoneOf = (facilityId: string) => org?.facilities.find((facility) => facility.id === facilityId)?.timezone ?? "UTC";
  const orgOptions = organizations.map((candidate) => option(candidate.id, organizationLabel(candidate), candidate.id === selection.organizationId)).join("");
  const userOptions = users.map((user) => option(user.id, userLabel(user), user.id === selection.userId)).join("");
  const patientOptions = [
    option(NONE, "No patient", selection.patientId === null),
    ...patientsOf(notes).map((patient) => option(patient.id, patient.name, patient.id === selection.patientId)),
  ].join("");
  const noteOptions = [
    option(NONE, "No note", selection.noteId === null),
    ...notes.map((note) => option(note.id, noteLabel(note, timezoneOf(note.facilityId)), note.id === selection.noteId)),
  ].join("");
  const widthOptions = WIDTHS.map((width) => option(width.value, width.label, width.value === selection.width)).join("");

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox EHR — host page for Tandem</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/_sandbox/host.css">
<script type="application/json" id="host-initial-state">${scriptJson(initial)}</script>
<script type="module" src="/_sandbox/host.js"></script>
</head>
<body>
<header class="host-header">
<p id="host-banner" class="host-banner">Sandbox EHR — host page for Tandem</p>
<div class="ehr-bar">
  <h1 class="ehr-brand">ClinicEHR</h1>
  <form id="host-controls" class="ehr-controls" aria-label="What the EHR has in view">
    <div class="field field-org">
      <label for="host-org">Organization</label>
      <select id="host-org" name="org">${orgOptions}</select>
    </div>
    <div class="field field-user">
      <label for="host-user">User</label>
      <select id="host-user" name="user">${userOptions}</select>
    </div>
    <div class="field field-patient">
      <label for="host-patient">Patient</label>
      <select id="host-patient" name="patient">${patientOptions}</select>
    </div>
    <div class="field field-note">
      <label for="host-note">Note</label>
      <select id="host-note" name="note">${noteOptions}</select>
    </div>
    <div class="field field-width">
      <label for="host-width">App width</label>
      <select id="host-width" name="width">${widthOptions}</select>
    </div>
    <div class="field field-actions">
      <button type="button" id="host-reload" class="ehr-button">Reload app</button>
    </div>
  </form>
</div>
<div id="host-status" class="host-status" role="status" aria-live="polite"></div>
<div id="host-booking-status" class="host-booking" role="status" aria-live="polite" data-state="">
  <p id="host-booking-message" class="host-booking-message"></p>
  <button type="button" id="host-booking-dismiss" class="ehr-button" aria-label="Dismiss the booking message">Dismiss</button>
</div>
</header>
<main id="host-app-area" class="app-area">
  <div id="host-app-frame" class="app-frame" data-width="${escapeHtml(selection.width)}">
    <iframe id="tandem-app" name="tandem-app" title="Tandem" data-src="${escapeHtml(initial.appUrl)}"></iframe>
  </div>
</main>
</body>
</html>
`;
}
