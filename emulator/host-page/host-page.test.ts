import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createEmulator, type Emulator } from "../app.ts";
import { ORG_A_ID, ORG_B_ID, ORG_C_ID } from "../world/identities.ts";
import type { HostInitialState } from "./host-page.ts";
import { formatWhen, parseVisitDate, resolveSelection, selectNote, selectPatient, selectionQuery, type Selection } from "./host-selection.js";

// `GET /_sandbox/host`, the EHR host page (DESIGN.md "Its controls"): what
// the emulator serves. The page's behaviour in a browser (the bridge) is
// covered by the Playwright tests in e2e/.

const emulators: Emulator[] = [];
function emulator(settings: Parameters<typeof createEmulator>[0] = {}): Emulator {
  const created = createEmulator(settings);
  emulators.push(created);
  return created;
}
afterEach(() => {
  for (const created of emulators.splice(0)) created.close();
});

async function page(target: Emulator, query = ""): Promise<{ response: Response; html: string; initial: HostInitialState }> {
  const response = await target.app.request(`/_sandbox/host${query}`);
  const html = await response.text();
  const json = /<script type="application\/json" id="host-initial-state">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (json === undefined) throw new Error("the page embeds no initial state");
  return { response, html, initial: JSON.parse(json) as HostInitialState };
}

function selectedValue(html: string, id: string): string | undefined {
  const select = new RegExp(`<select id="${id}"[^>]*>([\\s\\S]*?)</select>`).exec(html)?.[1] ?? "";
  return /<option value="([^"]*)" selected>/.exec(select)?.[1];
}

function orgOf(target: Emulator, id: string) {
  const org = target.state.org(id);
  if (!org) throw new Error(`no organization ${id}`);
  return org;
}

describe("GET /_sandbox/host", () => {
  it("serves an HTML page with the sandbox banner, labelled pickers and the app's iframe", async () => {
    const { response, html } = await page(emulator());
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html; charset=utf-8$/i);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(html).toContain("Sandbox EHR — host page for Tandem");
    for (const id of ["host-org", "host-user", "host-patient", "host-note", "host-width"]) {
      expect(html).toContain(`<label for="${id}">`);
      expect(html).toContain(`<select id="${id}"`);
    }
    expect(html).toMatch(/<iframe id="tandem-app"[^>]* title="Tandem"/);
    expect(html).toContain('id="host-booking-status"');
    expect(html).toContain('<script type="module" src="/_sandbox/host.js"></script>');
  });

  it("loads the configured app URL in the iframe, and allows only its own scripts", async () => {
    const { response, html, initial } = await page(emulator({ settings: { appUrl: "http://localhost:9999" } }));
    expect(initial.appUrl).toBe("http://localhost:9999/");
    expect(initial.appOrigin).toBe("http://localhost:9999");
    expect(html).toMatch(/<iframe id="tandem-app"[^>]* data-src="http:\/\/localhost:9999\/"/);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
  });

  it("defaults to the app at http://localhost:8787", async () => {
    const { initial } = await page(emulator());
    expect(initial.appUrl).toBe("http://localhost:8787/");
  });

  it("defaults to org A, its first Physician, that user's first awaiting_sign note and its patient, full width", async () => {
    const target = emulator();
    const { html, initial } = await page(target);
    const org = orgOf(target, ORG_A_ID);
    const physician = org.ehr.providers.find((provider) => provider.roles.includes("Physician") && provider.active && !provider.hidden);
    const note = org.ehr.notes.find((candidate) => candidate.status === "awaiting_sign" && candidate.assignedProviders.some((provider) => provider.id === physician?.id));
    expect(physician).toBeDefined();
    expect(note).toBeDefined();
    expect(initial.selection).toEqual({ organizationId: ORG_A_ID, userId: physician?.id, patientId: note?.patient.id, noteId: note?.id, width: "full" });
    expect(initial.warnings).toEqual([]);
    expect(selectedValue(html, "host-org")).toBe(ORG_A_ID);
    expect(selectedValue(html, "host-user")).toBe(physician?.id);
    expect(selectedValue(html, "host-patient")).toBe(note?.patient.id);
    expect(selectedValue(html, "host-note")).toBe(note?.id);
    expect(selectedValue(html, "host-width")).toBe("full");
  });

  it("lists the three sandbox organizations by name from the emulator's state, C marked uninstalled", async () => {
    const { html, initial } = await page(emulator());
    expect(initial.organizations.map((org) => [org.id, org.letter, org.installationStatus])).toEqual([
      [ORG_A_ID, "A", "active"],
      [ORG_B_ID, "B", "active"],
      [ORG_C_ID, "C", "uninstalled"],
    ]);
    expect(html).toContain(">Riverside Health Partners (A)</option>");
    expect(html).toContain(">Harbourside Medical Group (B)</option>");
    expect(html).toMatch(/>[^<]+ \(C, uninstalled\)<\/option>/);
  });

  it("embeds the initial organization's users and notes as the sandbox controls list them", async () => {
    const target = emulator();
    const { initial } = await page(target, `?org=${ORG_B_ID}`);
    const users = (await (await target.app.request(`/_sandbox/ehr/${ORG_B_ID}/users`)).json()) as { users: unknown[] };
    const notes = (await (await target.app.request(`/_sandbox/ehr/${ORG_B_ID}/notes`)).json()) as { notes: unknown[] };
    expect(initial.users).toEqual(users.users);
    expect(initial.notes).toEqual(notes.notes);
  });

  it("honours a deep link: ?org=…&user=…&note=…&width=…, the note bringing its patient", async () => {
    const target = emulator();
    const org = orgOf(target, ORG_B_ID);
    const user = org.ehr.providers.find((provider) => provider.roles.includes("Front Desk"));
    const note = org.ehr.notes.find((candidate) => candidate.status === "signed");
    if (!user || !note) throw new Error("seed lacks a front-desk user or a signed note in org B");
    const { html, initial } = await page(target, `?org=${ORG_B_ID}&user=${user.id}&note=${note.id}&width=360`);
    expect(initial.selection).toEqual({ organizationId: ORG_B_ID, userId: user.id, patientId: note.patient.id, noteId: note.id, width: "360" });
    expect(initial.warnings).toEqual([]);
    expect(selectedValue(html, "host-user")).toBe(user.id);
    expect(selectedValue(html, "host-note")).toBe(note.id);
    expect(html).toContain('data-width="360"');
  });

  it("honours patient=none and note=none, an org letter, and a prefixed user id", async () => {
    const target = emulator();
    const org = orgOf(target, ORG_C_ID);
    const user = org.ehr.providers[1];
    if (!user) throw new Error("org C has no second user");
    const prefixed = `prv_${user.id.replaceAll("-", "")}`;
    const { html, initial } = await page(target, `?org=c&user=${prefixed}&patient=none&note=none`);
    expect(initial.selection).toEqual({ organizationId: ORG_C_ID, userId: user.id, patientId: null, noteId: null, width: "full" });
    expect(selectedValue(html, "host-patient")).toBe("none");
    expect(selectedValue(html, "host-note")).toBe("none");
  });

  it("a patient without a note opens that patient's chart with no note", async () => {
    const target = emulator();
    const note = orgOf(target, ORG_A_ID).ehr.notes.at(-1);
    if (!note) throw new Error("org A has no notes");
    const { initial } = await page(target, `?patient=${note.patient.id}`);
    expect(initial.selection.patientId).toBe(note.patient.id);
    expect(initial.selection.noteId).toBeNull();
  });

  it("falls back to the defaults, with a warning, on values it does not know", async () => {
    const target = emulator();
    const { initial: defaults } = await page(target);
    const { initial } = await page(target, "?org=nowhere&user=3c9b2f8e-0000-4000-8000-000000000000&width=5");
    expect(initial.selection).toEqual(defaults.selection);
    expect(initial.warnings).toEqual([
      expect.stringContaining('organization "nowhere"'),
      expect.stringContaining('width "5"'),
      expect.stringContaining('user "3c9b2f8e-0000-4000-8000-000000000000"'),
    ]);
  });

  it("keeps the embedded state inert: no markup from the data can close the script element", async () => {
    const target = emulator();
    orgOf(target, ORG_A_ID).ehr.name = "</script><script>alert(1)</script> & <!-- co";
    const { html, initial } = await page(target);
    expect(html).not.toContain("<script>alert(1)");
    expect(initial.organizations[0]?.name).toBe("</script><script>alert(1)</script> & <!-- co");
    expect(html).toContain("&#60;/script&#62;&#60;script&#62;alert(1)");
  });
});

describe("the host page's assets", () => {
  it.each([
    ["/_sandbox/host.js", /^text\/javascript; charset=utf-8$/],
    ["/_sandbox/host-bridge.js", /^text\/javascript; charset=utf-8$/],
    ["/_sandbox/host-selection.js", /^text\/javascript; charset=utf-8$/],
    ["/_sandbox/host.css", /^text\/css; charset=utf-8$/],
  ])("serves %s with its content type", async (path, type) => {
    const response = await emulator().app.request(path);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(type);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect((await response.text()).length).toBeGreaterThan(100);
  });

  it("imports only what the emulator serves, relative to /_sandbox/", async () => {
    const script = await (await emulator().app.request("/_sandbox/host.js")).text();
    const imports = [...script.matchAll(/^import [\s\S]*? from "([^"]+)";$/gm)].map((match) => match[1]);
    expect(imports.sort()).toEqual(["./host-bridge.js", "./host-selection.js"]);
  });

  it("never posts a message to every origin", () => {
    for (const file of ["host.js", "host-bridge.js", "host-selection.js"]) {
      const source = readFileSync(new URL(`./${file}`, import.meta.url), "utf8");
      expect(source).not.toMatch(/postMessage\s*\((?:[^()]|\([^()]*\))*,\s*(["'`])\*\1\s*\)/);
    }
    const script = readFileSync(new URL("./host.js", import.meta.url), "utf8");
    expect(script).toMatch(/\.postMessage\(checked\.message, appOrigin\)/);
    expect(script).toContain("event.source !== elements.iframe.contentWindow");
    expect(script).toContain("event.origin !== appOrigin");
  });
});

describe("host-selection (shared by the emulator and the page)", () => {
  const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
  const [u0, u1, u2, p1, p2, n1, n2, n3, f1] = [1, 2, 3, 11, 12, 21, 22, 23, 31].map(id) as [string, string, string, string, string, string, string, string, string];
  const notes = [
    { id: n1, status: "signed", visitDate: "2026-11-20 16:20:00.000000+00", patientId: p1, patientName: "Ann Lee", facilityId: f1, facilityName: "F1", assignedProviderIds: [u1], imageCount: 0 },
    { id: n2, status: "awaiting_sign", visitDate: "2026-11-21 09:00:00+00", patientId: p2, patientName: "Bo Chen", facilityId: f1, facilityName: "F1", assignedProviderIds: [u2], imageCount: 0 },
    { id: n3, status: "awaiting_sign", visitDate: "2026-11-22 09:00:00+00", patientId: p1, patientName: "Ann Lee", facilityId: f1, facilityName: "F1", assignedProviderIds: [u1], imageCount: 0 },
  ];
  const users = [
    { id: u0, firstName: "Fay", lastName: "Desk", displayName: "Fay Desk", title: "", roles: ["Front Desk"], hidden: false, active: true },
    { id: u1, firstName: "Jo", lastName: "Doc", displayName: "Dr. Jo Doc", title: "MD", roles: ["Physician"], hidden: false, active: true },
    { id: u2, firstName: "Al", lastName: "Doc", displayName: "Dr. Al Doc", title: "MD", roles: ["Physician"], hidden: false, active: true },
  ];
  const selection: Selection = { organizationId: ORG_A_ID, userId: u1, patientId: p1, noteId: n3, width: "full" };

  it("defaults to the first Physician's first awaiting_sign note", () => {
    expect(resolveSelection(users, notes)).toEqual({ userId: u1, patientId: p1, noteId: n3, warnings: [] });
    expect(resolveSelection(users, notes, { user: u0 })).toEqual({ userId: u0, patientId: p2, noteId: n2, warnings: [] });
  });

  it("a note brings its patient, over a patient that does not match (with a warning)", () => {
    const resolved = resolveSelection(users, notes, { patient: p2, note: n1 });
    expect(resolved).toMatchObject({ patientId: p1, noteId: n1 });
    expect(resolved.warnings).toHaveLength(1);
  });

  it("picking a patient keeps the note only when it is that patient's", () => {
    expect(selectPatient(selection, notes, p1)).toMatchObject({ patientId: p1, noteId: n3 });
    expect(selectPatient(selection, notes, p2)).toMatchObject({ patientId: p2, noteId: null });
    expect(selectPatient(selection, notes, null)).toMatchObject({ patientId: null, noteId: null });
  });

  it("picking a note brings its patient; no note keeps the patient", () => {
    expect(selectNote(selection, notes, n2)).toMatchObject({ patientId: p2, noteId: n2 });
    expect(selectNote(selection, notes, null)).toMatchObject({ patientId: p1, noteId: null });
  });

  it("writes the deep link it can read back", () => {
    expect(selectionQuery({ ...selection, patientId: null, noteId: null, width: "768" })).toBe(`?org=${ORG_A_ID}&user=${u1}&patient=none&note=none&width=768`);
  });

  it("reads the EHR's visit dates and shows times in the facility's zone", () => {
    expect(new Date(parseVisitDate("2026-11-20 16:20:00.000000+00")).toISOString()).toBe("2026-11-20T16:20:00.000Z");
    expect(new Date(parseVisitDate("2026-12-01T10:00:00-05:00")).toISOString()).toBe("2026-12-01T15:00:00.000Z");
    expect(parseVisitDate("yesterday")).toBeNaN();
    expect(formatWhen(Date.parse("2026-12-01T15:00:00Z"), "America/New_York")).toBe("Tue 1 Dec 10:00");
    expect(formatWhen(Date.parse("2026-12-01T15:00:00Z"), "Not/AZone")).toBe("Tue 1 Dec 15:00");
  });
});
