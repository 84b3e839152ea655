import { addDays, localDateOf, weekdayOf } from "#contract/time/zoned-time.ts";
import { asArray, asRecord, asString, parseJson, type AppClient } from "./app-client.ts";
import type { TokenMint } from "./host-tokens.ts";
import { pick, random } from "./load-random.ts";

// What each organization offers the load bench's sessions: its users by
// role, its unsigned notes, its facilities, which providers have slots where,
// and the fixed set of slot searches its front desks make. Read before the
// clock starts (not counted): users and notes from the emulator's sandbox
// controls, the rest through the BFF as the SPA reads it.

const CLINICAL_ROLES = ["Physician", "Nurse Practitioner", "Medical Assistant"];
const FILTER_COMBINATIONS_PER_ORG = 16;
const MAX_FACILITIES_PER_SEARCH = 3;
const REQUEST_TIMEOUT_MS = 15_000;

export interface SlotQuery {
  appointmentTypeId: string;
  facilityIds: string[];
  providerIds: string[];
  startDate: string;
  endDate: string;
  isNewPatient: boolean;
}

export interface OrgWorld {
  label: string;
  id: string;
  frontDeskUsers: string[];
  schedulerUsers: string[];
  clinicalUsers: string[];
  /** Unsigned notes, with their patient and facility. */
  notes: { id: string; patientId: string; facilityId: string }[];
  facilities: { id: string; timezone: string }[];
  providersByFacility: Map<string, string[]>;
  combinations: SlotQuery[];
  /** The answers of `combinations`, KB (read at setup). */
  slotAnswerKb: { min: number; median: number; max: number };
}

export function slotQueryString(query: SlotQuery): string {
  const params = new URLSearchParams({ appointmentTypeId: query.appointmentTypeId, facilityIds: query.facilityIds.join(","), startDate: query.startDate, endDate: query.endDate, isNewPatient: String(query.isNewPatient) });
  if (query.providerIds.length > 0) params.set("providerIds", query.providerIds.join(","));
  return params.toString();
}

async function sandboxGet(url: string): Promise<Record<string, unknown>> {
  const response = await fetch(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  return asRecord(await response.json());
}

/** Users, notes, pickers and which providers have slots where: read before the clock starts, not counted. */
export async function loadOrgWorld(emulatorUrl: string, client: AppClient, mint: TokenMint, org: { label: string; id: string }, seed: number): Promise<OrgWorld> {
  const users = asArray((await sandboxGet(`${emulatorUrl}/_sandbox/ehr/${org.id}/users`)).users).map(asRecord);
  const visible = users.filter((user) => user.hidden === false && user.active === true);
  const withRole = (roles: readonly string[]) => visible.filter((user) => asArray(user.roles).some((role) => roles.includes(asString(role)))).map((user) => asString(user.id));
  const notes = asArray((await sandboxGet(`${emulatorUrl}/_sandbox/ehr/${org.id}/notes`)).notes).map(asRecord);
  const frontDeskUsers = withRole(["Front Desk"]);
  if (frontDeskUsers.length === 0) throw new Error(`org ${org.label}: no front-desk user`);
  const token = await mint.mint({ organizationId: org.id, userId: frontDeskUsers[0] ?? "" });
  const get = async (path: string) => {
    const answer = await client.send("GET", path, token);
    if (answer.status !== 200) throw new Error(`setup ${path}: ${answer.status} ${answer.text}`);
    return asRecord(parseJson(answer.text));
  };
  const facilities = asArray((await get("/api/facilities")).facilities).map((entry) => ({ id: asString(asRecord(entry).id), timezone: asString(asRecord(entry).timezone) }));
  const types = asArray((await get("/api/appointment-types")).appointmentTypes).map((entry) => ({ id: asString(asRecord(entry).id), abbreviation: asString(asRecord(entry).abbreviation) }));
  const zone = facilities[0]?.timezone;
  if (!zone || types.length === 0) throw new Error(`org ${org.label}: no facility or appointment type`);
  const today = localDateOf(Date.now(), zone);

  // Which providers have slots at which facility: searches per facility over four weeks.
  const providersByFacility = new Map<string, string[]>();
  for (const facility of facilities) {
    const providers = new Set<string>();
    for (const type of types.slice(0, 3)) {
      const answer = await get(`/api/slots?${slotQueryString({ appointmentTypeId: type.id, facilityIds: [facility.id], providerIds: [], startDate: today, endDate: addDays(today, 27), isNewPatient: false })}`);
      for (const slot of asArray(answer.slots)) providers.add(asString(asRecord(slot).providerId));
    }
    providersByFacility.set(facility.id, [...providers].sort());
  }

  // What the front desks of this organization ask for: a fixed set of combinations (so the BFF's cache sees repeats, as a clinic's desks do).
  const next = random(seed);
  const monday = addDays(today, 7 - weekdayOf(today));
  const windows = [
    { startDate: today, endDate: addDays(today, 13) },
    { startDate: monday, endDate: addDays(monday, 6) },
    { startDate: today, endDate: addDays(today, 27) },
    { startDate: addDays(today, 14), endDate: addDays(today, 27) },
  ];
  const combinations: SlotQuery[] = [];
  const seen = new Set<string>();
  for (let attempt = 0; combinations.length < FILTER_COMBINATIONS_PER_ORG && attempt < 500; attempt += 1) {
    const type = pick(next, types);
    // A desk books for its own facility, sometimes for the group's other sites in that zone too: at most
    // MAX_FACILITIES_PER_SEARCH, as wide as "every facility" was in the default world (one search over
    // every facility and provider of a large group answers several MB).
    const home = pick(next, facilities);
    const facilityIds = next() < 0.3 ? facilities.filter((facility) => facility.timezone === home.timezone).slice(0, MAX_FACILITIES_PER_SEARCH).map((facility) => facility.id) : [home.id];
    if (!facilityIds.includes(home.id)) facilityIds.splice(MAX_FACILITIES_PER_SEARCH - 1, 1, home.id);
    const providers = facilityIds.flatMap((id) => providersByFacility.get(id) ?? []);
    const providerIds = next() < 0.25 && providers.length > 0 ? [pick(next, providers)] : [];
    const combination: SlotQuery = { appointmentTypeId: type.id, facilityIds, providerIds, ...pick(next, windows), isNewPatient: /^NP/i.test(type.abbreviation) || next() < 0.1 };
    const key = slotQueryString(combination);
    if (seen.has(key)) continue;
    seen.add(key);
    combinations.push(combination);
  }

  // The size of each search's answer (this also fills the BFF's cache, as a clinic's morning would).
  const answerKb: number[] = [];
  for (const combination of combinations) answerKb.push(Buffer.byteLength((await client.send("GET", `/api/slots?${slotQueryString(combination)}`, token)).text) / 1024);
  answerKb.sort((a, b) => a - b);

  return {
    label: org.label,
    slotAnswerKb: { min: Math.round(answerKb[0] ?? 0), median: Math.round(answerKb[Math.floor(answerKb.length / 2)] ?? 0), max: Math.round(answerKb.at(-1) ?? 0) },
    id: org.id,
    frontDeskUsers,
    schedulerUsers: withRole(["Scheduler"]),
    clinicalUsers: withRole(CLINICAL_ROLES),
    notes: notes.filter((note) => note.status !== "signed").map((note) => ({ id: asString(note.id), patientId: asString(note.patientId), facilityId: asString(note.facilityId) })),
    facilities,
    providersByFacility,
    combinations,
  };
}

/**
 * Warms another process as `loadOrgWorld` warmed the first: the session and
 * the pickers, and the organization's slot searches. Every process then
 * starts the run as one that served the clinic's morning; one started cold
 * would meet the opening sessions with an empty cache, code not yet compiled
 * and no signing keys, which is a deployment's first minute, not the load it
 * carries.
 */
export async function warmProcess(client: AppClient, mint: TokenMint, world: OrgWorld, processLabel: string): Promise<void> {
  const token = await mint.mint({ organizationId: world.id, userId: world.frontDeskUsers[0] ?? "" });
  const paths = ["/api/session", "/api/facilities", "/api/appointment-types", "/api/providers", ...world.combinations.map((combination) => `/api/slots?${slotQueryString(combination)}`)];
  for (const path of paths) {
    const answer = await client.send("GET", path, token, undefined, false);
    if (answer.status !== 200) throw new Error(`warming ${processLabel}: ${path} answered ${answer.status}`);
  }
}
