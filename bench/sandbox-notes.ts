// What the note benches share: the sandbox's organization A, the browser's
// flags, plain JSON fetches, and the largest unsigned seeded note with a
// physician to open it as.

export const ORG_ID = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
/** The sandbox data key, to read and change notes as a client of the service (bench code only, never a browser). */
const DATA_KEY = "svc_dev_ak_5a0d1e2f3a4b5c6d7e8f90a1b2c3d4e5";
export const CHROMIUM_ARGS = ["--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic", "--disable-gpu"];
/**
 * The note benches' BFF: one physician opens, saves and re-reads the same
 * note far faster than anyone works (about 300 upstream calls in a minute),
 * so the per-user limit (200 in 60 s, ADR 0017) would answer 429 mid-bench.
 * The limit is not what these benches measure.
 */
export const NOTE_BENCH_BFF_ENV = { UPSTREAM_USER_LIMIT: "100000" };
/** Headers of a request to the service as organization A. */
export const upstreamHeaders = { authorization: `Bearer ${DATA_KEY}`, "x-organization-id": ORG_ID };

export interface SandboxNote {
  id: string;
  status: string;
  patientId: string;
  assignedProviderIds: string[];
}

interface SandboxUser {
  id: string;
  roles: string[];
  hidden: boolean;
}

export async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The unsigned note with the most text, and a physician to open it as. */
export async function largestNote(emulatorUrl: string): Promise<{ note: SandboxNote; userId: string; bytes: number }> {
  const { notes } = await json<{ notes: SandboxNote[] }>(`${emulatorUrl}/_sandbox/ehr/${ORG_ID}/notes`);
  const { users } = await json<{ users: SandboxUser[] }>(`${emulatorUrl}/_sandbox/ehr/${ORG_ID}/users`);
  const physician = users.find((user) => user.roles.includes("Physician") && !user.hidden);
  if (!physician) throw new Error("no physician");
  let best: { note: SandboxNote; bytes: number } | null = null;
  for (const note of notes.filter((candidate) => candidate.status !== "signed")) {
    const bytes = (await (await fetch(`${emulatorUrl}/v1/notes/${note.id}`, { headers: upstreamHeaders })).text()).length;
    if (!best || bytes > best.bytes) best = { note, bytes };
  }
  if (!best) throw new Error("no unsigned note");
  return { ...best, userId: physician.id };
}
