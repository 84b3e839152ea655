import { performance } from "node:perf_hooks";
import { MAX_ACTIVE_HOLDS } from "#contract/app-api/slots.ts";
import { addDays, localDateOf, weekdayOf } from "#contract/time/zoned-time.ts";
import { asArray, asRecord, asString, parseJson, type Answer, type AppClient, type LiveStreams } from "./app-client.ts";
import type { SlotPicker } from "./slot-picker.ts";
import { SessionTokens, type Identity, type TokenMint } from "./host-tokens.ts";
import { between, pick, sleep, type Range } from "./load-random.ts";
import { slotQueryString, type OrgWorld } from "./org-world.ts";

// What the load bench's sessions do, each as the SPA would for its user, over
// keep-alive HTTP with its own host tokens and a live-event stream open:
// - front desk: loads the session and pickers, then searches slots every
//   ~2 s (±20 %), changing filters on a third of the searches (the
//   organization's set of combinations); after about one search in 30 (once
//   a minute) picks a slot with capacity from the answer, checks it (the
//   strong read), holds it, talks 3-8 s, releases. Sessions of one user
//   share the user's basket of MAX_ACTIVE_HOLDS (the bench has fewer users
//   than sessions): as the SPA, which lists the user's holds, a session does
//   not try a hold while the basket is full.
// - schedulers: page availability a week at a time (every 2-4 s) for a
//   facility; mostly forward, sometimes back to this week or to another
//   facility. As the SPA, a scheduler who filters to one provider still reads
//   the facility's week and narrows it in the browser.
// - clinicians: open their note (note, draft, tasks, images, and the patient
//   banner where `read:patients` is granted), save a draft every 10-20 s,
//   and re-open the note every 45-75 s (half the time moving to another).

export type Role = "frontDesk" | "scheduler" | "clinician";

const SEARCH_INTERVAL_MS = 2_000;
const FILTER_CHANGE_PROBABILITY = 1 / 3;
const HOLD_PROBABILITY = 1 / 30;
const HOLD_TALK_MS: Range = [3_000, 8_000];
const AVAILABILITY_PAGE_MS: Range = [2_000, 4_000];
const DRAFT_SAVE_MS: Range = [10_000, 20_000];
const NOTE_REOPEN_MS: Range = [45_000, 75_000];
const WRITE_TOKEN_SPARES: Record<Role, number> = { frontDesk: 3, scheduler: 0, clinician: 2 };

export interface Run {
  mint: TokenMint;
  endsAt: number;
  holds: { attempts: number; unavailableAtCheck: number; held: number; released: number; skippedBasketFull: number };
  draftsSaved: number;
  live: LiveStreams;
  /** Holds each user has, or is about to have, across the user's sessions. */
  basket: Map<string, number>;
  /** Where a front desk's slot to hold is picked from an answer (off this thread). */
  picker: SlotPicker;
}

export const running = (run: Run) => performance.now() < run.endsAt;

export interface SessionPlan {
  index: number;
  role: Role;
  org: OrgWorld;
  userId: string;
  /** Clinicians: where in the org's notes they start. */
  noteIndex: number;
  tokens: SessionTokens;
  /** The BFF process this session talks to. */
  client: AppClient;
  appUrl: string;
}

function clinicianIdentity(org: OrgWorld, userId: string, noteIndex: number): Identity {
  const note = org.notes[noteIndex % org.notes.length];
  if (!note) throw new Error(`org ${org.label}: no unsigned note`);
  return { organizationId: org.id, userId, noteId: note.id, patientId: note.patientId, facilityId: note.facilityId };
}

/** What the SPA loads when it starts in a view: the session, and that view's pickers. */
async function bootstrap(run: Run, plan: SessionPlan): Promise<Record<string, unknown> | null> {
  const token = await plan.tokens.read();
  const pickers: Record<Role, string[]> = {
    frontDesk: ["providers", "facilities", "appointment-types"],
    scheduler: ["providers", "facilities"],
    clinician: ["providers"],
  };
  const [session] = await Promise.all([
    plan.client.call("session", "GET", "/api/session", token, { keepBody: true }),
    ...pickers[plan.role].map((picker) => plan.client.call("pickers", "GET", `/api/${picker}`, token)),
  ]);
  run.live.keep(plan.appUrl, plan.tokens, () => running(run));
  return session?.status === 200 ? asRecord(parseJson(session.text)) : null;
}

async function holdOne(run: Run, plan: SessionPlan, next: () => number, slots: Answer, kind: { appointmentTypeId: string; isNewPatient: boolean }): Promise<void> {
  const slot = await run.picker.pick(slots, next());
  if (slot === null) return;
  const selection = { ...slot, ...kind };
  run.holds.attempts += 1;
  const check = await plan.client.call("slotCheck", "POST", "/api/slots/check", await plan.tokens.write(), { body: selection, keepBody: true });
  if (check?.status !== 200) return;
  if (asRecord(parseJson(check.text)).available !== true) {
    run.holds.unavailableAtCheck += 1;
    return;
  }
  const held = await plan.client.call("holdCreate", "POST", "/api/holds", await plan.tokens.write(), { body: selection, keepBody: true });
  const holdId = held?.status === 200 ? asString(asRecord(asRecord(parseJson(held.text)).hold).id) : "";
  if (holdId === "") return;
  run.holds.held += 1;
  // On the phone with the patient; then the EHR books it, or the caller declines: here, released.
  await sleep(between(next, HOLD_TALK_MS));
  const path = `/api/holds/${encodeURIComponent(holdId)}`;
  // A call that ends after the run is cleared up unrecorded: cutting every call short at the end would send all their releases in the same instant, as no front desk does.
  const released = running(run) ? await plan.client.call("holdRelease", "DELETE", path, await plan.tokens.write()) : await plan.client.send("DELETE", path, await plan.tokens.write()).catch(() => null);
  if (released?.status === 200) run.holds.released += 1;
}

async function frontDesk(run: Run, plan: SessionPlan, next: () => number): Promise<void> {
  await bootstrap(run, plan);
  const combinations = plan.org.combinations;
  let combination = pick(next, combinations);
  let due = performance.now();
  while (running(run)) {
    await sleep(due - performance.now());
    if (!running(run)) break;
    if (next() < FILTER_CHANGE_PROBABILITY) combination = pick(next, combinations);
    // Decided before the search, so that only a search leading to a hold keeps (and parses) its answer.
    const wantsHold = next() < HOLD_PROBABILITY;
    const answer = await plan.client.call("slots", "GET", `/api/slots?${slotQueryString(combination)}`, await plan.tokens.read(), { keepBody: wantsHold });
    due += SEARCH_INTERVAL_MS * (0.8 + 0.4 * next());
    if (answer?.status !== 200 || !wantsHold) continue;
    const inBasket = run.basket.get(plan.userId) ?? 0;
    if (inBasket >= MAX_ACTIVE_HOLDS) {
      run.holds.skippedBasketFull += 1;
      continue;
    }
    run.basket.set(plan.userId, inBasket + 1);
    try {
      await holdOne(run, plan, next, answer, { appointmentTypeId: combination.appointmentTypeId, isNewPatient: combination.isNewPatient });
    } finally {
      run.basket.set(plan.userId, (run.basket.get(plan.userId) ?? 1) - 1);
    }
    due = performance.now() + SEARCH_INTERVAL_MS * (0.8 + 0.4 * next());
  }
}

async function scheduler(run: Run, plan: SessionPlan, next: () => number): Promise<void> {
  await bootstrap(run, plan);
  const { facilities } = plan.org;
  const choose = () => ({ facility: pick(next, facilities) });
  let view = choose();
  const thisWeek = () => {
    const today = localDateOf(Date.now(), view.facility.timezone);
    return addDays(today, -weekdayOf(today));
  };
  let week = thisWeek();
  while (running(run)) {
    const params = new URLSearchParams({ facilityId: view.facility.id, startDate: week, endDate: addDays(week, 6) });
    await plan.client.call("availability", "GET", `/api/availability?${params.toString()}`, await plan.tokens.read());
    await sleep(Math.min(between(next, AVAILABILITY_PAGE_MS), run.endsAt - performance.now()));
    const move = next();
    if (move < 0.7) week = addDays(week, 7);
    else if (move < 0.8) week = addDays(week, -7);
    else if (move < 0.9) week = thisWeek();
    else {
      view = choose();
      week = thisWeek();
    }
    // Paging stays within about two months ahead.
    if (week > addDays(thisWeek(), 56)) week = thisWeek();
  }
}

async function clinician(run: Run, plan: SessionPlan, next: () => number): Promise<void> {
  const session = await bootstrap(run, plan);
  const canReadPatients = asArray(session?.grantedScopes).includes("read:patients");
  let tokens = plan.tokens;
  let noteIndex = plan.noteIndex;
  let saves = 0;
  while (running(run)) {
    // Open the note: what the note view loads.
    const noteId = tokens.identity.noteId ?? "";
    const token = await tokens.read();
    const path = `/api/notes/${noteId}`;
    const [note] = await Promise.all([
      plan.client.call("noteRead", "GET", path, token, { keepBody: true }),
      plan.client.call("noteDraftRead", "GET", `${path}/draft`, token),
      plan.client.call("noteTasks", "GET", `${path}/tasks`, token),
      plan.client.call("noteImages", "GET", `${path}/images`, token),
      ...(canReadPatients ? [plan.client.call("contextPatient", "GET", "/api/context/patient", token)] : []),
    ]);
    const body = asRecord(asRecord(parseJson(note?.text ?? "")).note);
    const baseline = asString(asRecord(body.soapNote).impressionsPlansComments);
    const version = typeof body.version === "number" ? body.version : null;
    const reopenAt = performance.now() + between(next, NOTE_REOPEN_MS);
    let draftAt = performance.now() + between(next, DRAFT_SAVE_MS);
    while (running(run)) {
      const wake = Math.min(draftAt, reopenAt, run.endsAt);
      await sleep(wake - performance.now());
      if (!running(run) || performance.now() >= reopenAt) break;
      saves += 1;
      const draft = { fields: { impressionsPlansComments: `${baseline}\nLoad bench draft ${plan.index}.${saves}` }, baseline: { impressionsPlansComments: baseline }, noteVersion: version };
      const saved = await plan.client.call("noteDraftSave", "PUT", `${path}/draft`, await tokens.write(), { body: draft });
      if (saved?.status === 200) run.draftsSaved += 1;
      draftAt = performance.now() + between(next, DRAFT_SAVE_MS);
    }
    if (running(run) && next() < 0.5) {
      noteIndex += 1;
      tokens = new SessionTokens(run.mint, clinicianIdentity(plan.org, plan.userId, noteIndex), WRITE_TOKEN_SPARES.clinician);
    }
  }
}

export const ROLE_BEHAVIOURS: Record<Role, (run: Run, plan: SessionPlan, next: () => number) => Promise<void>> = { frontDesk, scheduler, clinician };

export interface BffTarget {
  client: AppClient;
  appUrl: string;
}

/**
 * Sessions split evenly over the organizations; in each, half front desk, a
 * fifth schedulers, the rest clinicians; session i talks to BFF process
 * i mod processes (so each process gets its half of every role of every
 * organization).
 */
export function planSessions(worlds: readonly OrgWorld[], sessions: number, mint: TokenMint, targets: readonly BffTarget[]): SessionPlan[] {
  const plans: SessionPlan[] = [];
  worlds.forEach((org, orgIndex) => {
    const count = Math.floor(sessions / worlds.length) + (orgIndex < sessions % worlds.length ? 1 : 0);
    const frontDesks = Math.round(count * 0.5);
    const schedulers = Math.round(count * 0.2);
    for (let k = 0; k < count; k += 1) {
      const role: Role = k < frontDesks ? "frontDesk" : k < frontDesks + schedulers ? "scheduler" : "clinician";
      const users = role === "frontDesk" ? org.frontDeskUsers : role === "scheduler" ? org.schedulerUsers : org.clinicalUsers;
      const userId = users[k % Math.max(1, users.length)];
      if (!userId) throw new Error(`org ${org.label}: no user for ${role}`);
      const identity = role === "clinician" ? clinicianIdentity(org, userId, k) : { organizationId: org.id, userId };
      const target = targets[plans.length % targets.length];
      if (!target) throw new Error("no BFF process to talk to");
      plans.push({ index: plans.length, role, org, userId, noteIndex: k, tokens: new SessionTokens(mint, identity, WRITE_TOKEN_SPARES[role]), client: target.client, appUrl: target.appUrl });
    }
  });
  return plans;
}
