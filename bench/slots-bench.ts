import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import { chromium, type Frame, type Page } from "@playwright/test";
import { toRawUuid } from "#contract/ids.ts";
import { addDays, localDateOf, weekdayOf } from "#contract/time/zoned-time.ts";
import { createEmulator, type Emulator } from "../emulator/app.ts";
import { freePort } from "../scripts/testing/free-port.ts";
import { waitUntilHealthy } from "../scripts/wait-until-healthy.ts";
// The emulator seed's mulberry32, so two runs issue the same load.
import { random } from "./load/load-random.ts";
import { percentile, round } from "./measure.ts";

// The slot finder's budgets (DESIGN.md "Performance budgets"):
//
// 1. Click "Search" to the rendered list, in Chromium through the EHR host
//    page, 12 providers × 14 days: p50 and p95 over 20 runs, against the bare
//    upstream slots call with the same query in the same run (p95 at most 3×).
//    Every search is a cache miss, in the SPA and in the BFF: each run moves
//    the window one day later (a new query key on both sides). Upstream calls
//    per search are counted at the emulator.
// 2. 50 users of one organization searching every 2 s for 60 s against the
//    BFF (`GET /api/slots`, host tokens, a few realistic filter combinations):
//    upstream requests per minute as the emulator sees them (under 1000) and
//    rate-limit answers that reached a user (none).
//
// The emulator runs in this process, behind a counter of every data request
// it serves (route and status); the BFF runs as its own process, as
// `npm start` runs it, and is reached over loopback only. About 1.5 minutes.

const ORG_A = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
/** The sandbox data key, for the bare upstream calls (bench code only, never a browser). */
const DATA_KEY = "svc_dev_ak_5a0d1e2f3a4b5c6d7e8f90a1b2c3d4e5";
const FACILITIES = { upperWestSide: "decb7415-a45c-4b13-8593-61ec146879bf", lincolnPark: "1b566c2c-b5f1-4bbf-beb3-23271408baaa" };
const ZONE = "America/New_York";
/** The facilities' zones (slots name them `fac_…`, pickers by raw UUID). */
const zoneOf = (facilityId: string) => (facilityId.replaceAll("-", "").endsWith(FACILITIES.lincolnPark.replaceAll("-", "")) ? "America/Chicago" : "America/New_York");

const SEARCH_RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 20);
const SEARCH_WARMUP = 3;
const WINDOW_DAYS = 14;
const HOLD_RUNS = 15;
const BASKET_RUNS = 5;
const RENDER_TIMEOUT_MS = 10_000;
const LOAD_USERS = 50;
const LOAD_INTERVAL_MS = 2_000;
const LOAD_DURATION_MS = 60_000;
const REQUEST_TIMEOUT_MS = 5_000;
const READY_TIMEOUT_MS = 60_000;
const CHROMIUM_ARGS = ["--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic", "--disable-gpu"];

// ------------------------------------------------------------------ the stack

interface UpstreamRecord {
  at: number;
  route: string;
  status: number;
}

/** Every data request the emulator serves (`/v1/…` to `/v4/…`), with its route (ids folded) and status. */
class UpstreamCounter {
  readonly records: UpstreamRecord[] = [];

  async serve(emulator: Emulator, request: Request): Promise<Response> {
    const response = await emulator.app.fetch(request);
    const { pathname } = new URL(request.url);
    if (/^\/v\d+\//.test(pathname)) {
      const route = `${request.method} ${pathname.replace(/\/(?:[0-9a-f]{8}-[0-9a-f-]{27}|[a-z]{3}_[0-9a-f]{32})(?=\/|$)/gi, "/{id}")}`;
      this.records.push({ at: performance.now(), route, status: response.status });
    }
    return response;
  }

  get count(): number {
    return this.records.length;
  }

  since(index: number): UpstreamRecord[] {
    return this.records.slice(index);
  }
}

const byRoute = (records: readonly UpstreamRecord[]) => {
  const counts: Record<string, number> = {};
  for (const record of records) counts[record.route] = (counts[record.route] ?? 0) + 1;
  return counts;
};

interface Stack {
  emulatorUrl: string;
  appUrl: string;
  emulator: Emulator;
  counter: UpstreamCounter;
  stop(): Promise<void>;
}

async function startStack(): Promise<Stack> {
  const [emulatorPort, bffPort] = [await freePort(), await freePort()];
  const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
  const appUrl = `http://localhost:${bffPort}`;
  // Strong reads are not part of a search: their extra latency is irrelevant here, so none.
  const emulator = createEmulator({ settings: { publicUrl: emulatorUrl, appUrl, strongReadLatencyMs: 0 } });
  const counter = new UpstreamCounter();
  const server = serve({ fetch: (request: Request) => counter.serve(emulator, request), port: emulatorPort, hostname: "127.0.0.1" });
  const syncTimer = setInterval(() => emulator.state.syncIfDue(), 1_000);
  syncTimer.unref();

  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.CLINIC_API_BASE_URL;
  delete env.CLINIC_API_KEY;
  delete env.DATABASE_URL;
  const dataDir = mkdtempSync(join(tmpdir(), "tandem-slots-bench-"));
  let output = "";
  const bff = spawn(process.execPath, ["--import", "tsx", "server/index.ts"], {
    env: { ...env, PORT: String(bffPort), SANDBOX_EMULATOR_URL: emulatorUrl, DATA_DIR: join(dataDir, "pglite"), LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  bff.stdout?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  bff.stderr?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));

  const stop = async () => {
    if (bff.exitCode === null && bff.signalCode === null) {
      const exited = new Promise<void>((resolve) => bff.once("exit", () => resolve()));
      bff.kill("SIGTERM");
      const timer = setTimeout(() => bff.kill("SIGKILL"), 3_000);
      await exited;
      clearTimeout(timer);
    }
    clearInterval(syncTimer);
    emulator.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilHealthy(`${appUrl}/healthz`, { child: bff, log: () => output, timeoutMs: READY_TIMEOUT_MS });
  } catch (error) {
    await stop();
    throw error;
  }
  return { emulatorUrl, appUrl, emulator, counter, stop };
}

// ------------------------------------------------------------------- helpers

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`${init?.method ?? "GET"} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

interface SandboxUser {
  id: string;
  roles: string[];
  hidden: boolean;
  active?: boolean;
}

async function sandboxUsers(stack: Stack): Promise<SandboxUser[]> {
  return (await json<{ users: SandboxUser[] }>(`${stack.emulatorUrl}/_sandbox/ehr/${ORG_A}/users`)).users.filter((user) => !user.hidden && user.active !== false);
}

async function hostToken(stack: Stack, userId: string): Promise<string> {
  const { token } = await json<{ token: string }>(`${stack.emulatorUrl}/_sandbox/host-token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ organizationId: ORG_A, userId }),
  });
  return token;
}

async function typeIdOf(stack: Stack, abbreviation: string): Promise<string> {
  const { data } = await json<{ data: { appointmentTypes: { id: string; abbreviation: string }[] } }>(`${stack.emulatorUrl}/v3/appointment-types`, { headers: upstreamHeaders });
  const type = data.appointmentTypes.find((candidate) => candidate.abbreviation === abbreviation);
  if (!type) throw new Error(`no appointment type ${abbreviation}`);
  return type.id;
}

const upstreamHeaders = { authorization: `Bearer ${DATA_KEY}`, "x-organization-id": ORG_A };

interface SlotQuery {
  appointmentTypeId: string;
  facilityIds: string[];
  providerIds?: string[];
  startDate: string;
  endDate: string;
  isNewPatient: boolean;
}

function queryString(query: SlotQuery): string {
  const params = new URLSearchParams({ appointmentTypeId: query.appointmentTypeId, facilityIds: query.facilityIds.join(","), startDate: query.startDate, endDate: query.endDate, isNewPatient: String(query.isNewPatient) });
  if (query.providerIds?.length) params.set("providerIds", query.providerIds.join(","));
  return params.toString();
}

// ---------------------------------------------- 1. click to rendered list

/**
 * Armed in the app's frame before the click: resolves with the time from the
 * Search button's click event to the DOM showing the new window's list (the
 * summary counting the expected slots, the window's first day drawn first, not busy), and to the
 * frame after (paint). A string, as this file is type-checked without the DOM.
 */
const ARM_MEASUREMENT = `(expected) => {
  const root = document.querySelector('[data-testid="slot-results"]');
  const button = document.querySelector('[data-testid="slot-search"] button[type="submit"]');
  if (!root || !button) throw new Error("the slot finder is not on screen");
  window.__slotsBench = new Promise((resolve, reject) => {
    let clickedAt = 0;
    const rendered = () => {
      if (root.getAttribute("aria-busy") !== "false") return false;
      const day = root.querySelector('[data-testid="slot-day"]');
      // The whole list by its summary's count: only the rows on screen may be drawn.
      const summary = document.querySelector('[data-testid="slot-summary"]')?.textContent ?? "";
      return day !== null && day.getAttribute("data-date") === expected.firstDate && root.querySelector('[data-testid="slot"]') !== null && summary.startsWith(expected.count.toLocaleString("en-US") + " free slot");
    };
    const check = () => {
      if (clickedAt === 0 || !rendered()) return;
      const domMs = performance.now() - clickedAt;
      observer.disconnect();
      clearTimeout(timer);
      const call = performance.getEntriesByType("resource").filter((entry) => entry.name.includes("/api/slots?") && entry.startTime >= clickedAt).at(-1);
      const phases = call ? { toRequestMs: call.startTime - clickedAt, bffCallMs: call.responseEnd - call.startTime, afterResponseMs: domMs - (call.responseEnd - clickedAt) } : null;
      requestAnimationFrame(() => setTimeout(() => resolve({ domMs, paintMs: performance.now() - clickedAt, phases })));
    };
    const observer = new MutationObserver(check);
    observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
    const timer = setTimeout(() => {
      observer.disconnect();
      const day = root.querySelector('[data-testid="slot-day"]');
      const seen = "aria-busy " + root.getAttribute("aria-busy") + ", first day " + (day ? day.getAttribute("data-date") : "none") + ", " + (document.querySelector('[data-testid="slot-summary"]')?.textContent ?? "no summary");
      reject(new Error("the list was not rendered within ${RENDER_TIMEOUT_MS} ms (expected first day " + expected.firstDate + ", " + expected.count + " slots; saw " + seen + ")"));
    }, ${RENDER_TIMEOUT_MS});
    button.addEventListener("click", () => { clickedAt = performance.now(); }, { capture: true, once: true });
  });
}`;

/**
 * In the app's frame: clicks the first slot of a provider holding nothing and resolves
 * with the milliseconds until the holds bar lists one more held slot (the
 * live check, the hold, the store's record, the bar painted).
 */
const CLICK_TO_HELD = `async () => {
  const heldCount = () => document.querySelectorAll('[data-testid="holds-bar"] [data-testid="hold-panel"][data-state="held"]').length;
  // A provider holding nothing yet: a hold also takes the overlapping slots of its own provider.
  const slots = [...document.querySelectorAll('[data-testid="slot-list"] [data-testid="slot"]')];
  const busy = new Set(slots.filter((slot) => slot.getAttribute("aria-current") === "true").map((slot) => slot.getAttribute("data-provider-id")));
  const button = slots.find((slot) => !busy.has(slot.getAttribute("data-provider-id")));
  if (!button) throw new Error("no free slot to hold");
  const before = heldCount();
  const start = performance.now();
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no hold within ${RENDER_TIMEOUT_MS} ms: " + (document.querySelector('[data-testid="holds-bar"]')?.textContent ?? "no holds bar"))), ${RENDER_TIMEOUT_MS});
    const observer = new MutationObserver(() => {
      if (heldCount() > before) { observer.disconnect(); clearTimeout(timer); requestAnimationFrame(() => resolve(undefined)); }
    });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true });
    button.click();
  });
  return performance.now() - start;
}`;

/** In the app's frame: releases every hold in the bar, one after another, until none is listed. */
const RELEASE_ALL = `async () => {
  for (let guard = 0; guard < 20; guard += 1) {
    const release = document.querySelector('[data-testid="holds-bar"] [data-testid="release-hold"]');
    if (!release) return;
    release.click();
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}`;

interface Measured {
  domMs: number;
  paintMs: number;
  phases: { toRequestMs: number; bffCallMs: number; afterResponseMs: number } | null;
}

async function appFrame(page: Page, appUrl: string): Promise<Frame> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const frame = page.frames().find((candidate) => candidate.url().startsWith(appUrl));
    if (frame) return frame;
    if (Date.now() > deadline) throw new Error("the app's frame did not load");
    await page.waitForTimeout(100);
  }
}

async function measureSearch(stack: Stack): Promise<Record<string, unknown>[]> {
  const org = stack.emulator.state.org(ORG_A);
  if (!org) throw new Error("org A missing");
  const providerIds = [...new Set(org.ehr.templates.map((template) => toRawUuid(template.providerId)))];
  const typeId = await typeIdOf(stack, "FU");
  const frontDesk = (await sandboxUsers(stack)).find((user) => user.roles.includes("Front Desk"));
  if (!frontDesk) throw new Error("no front-desk user");
  const today = localDateOf(Date.now(), ZONE);

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.setDefaultTimeout(RENDER_TIMEOUT_MS);
    await page.goto(`${stack.emulatorUrl}/_sandbox/host?org=${ORG_A}&user=${frontDesk.id}&patient=none&note=none`);
    const app = page.frameLocator("iframe#tandem-app");
    await app.getByRole("navigation", { name: "Tandem" }).getByRole("link", { name: "Slots" }).click();
    const form = app.getByTestId("slot-search");
    await form.waitFor();
    // The filters, once: follow-ups, both facilities, the 12 providers with availability.
    await form.getByLabel("Appointment type").selectOption(typeId);
    await form.getByRole("button", { name: /^Facilities/ }).click();
    await app.getByRole("dialog", { name: "Choose facilities" }).getByRole("button", { name: "Select all" }).click();
    await app.getByRole("dialog", { name: "Choose facilities" }).getByRole("button", { name: "Done" }).click();
    await form.getByRole("button", { name: /^Providers/ }).click();
    const providers = app.getByRole("dialog", { name: "Choose providers" });
    for (const providerId of providerIds) await providers.locator(`button[role="checkbox"][id$="-${providerId}"]`).click();
    await providers.getByRole("button", { name: "Done" }).click();
    await providers.waitFor({ state: "hidden" });
    const frame = await appFrame(page, stack.appUrl);

    const searchMs: number[] = [];
    const paintMs: number[] = [];
    const upstreamMs: number[] = [];
    // Where a search's time goes: click to the request, the BFF call as the browser saw it, response to the rendered list.
    const toRequestMs: number[] = [];
    const bffCallMs: number[] = [];
    const afterResponseMs: number[] = [];
    const upstreamCallsPerSearch: number[] = [];
    const upstreamSlotsCallsPerSearch: number[] = [];
    let slotCounts = 0;
    for (let run = 0; run < SEARCH_WARMUP + SEARCH_RUNS; run += 1) {
      // A window no earlier run has asked for: a miss in the SPA's cache and in the BFF's.
      const startDate = addDays(today, run);
      const query: SlotQuery = { appointmentTypeId: typeId, facilityIds: [FACILITIES.lincolnPark, FACILITIES.upperWestSide], providerIds: [...providerIds].sort(), startDate, endDate: addDays(startDate, WINDOW_DAYS - 1), isNewPatient: false };

      // The bare upstream call, same query.
      const upstreamStart = performance.now();
      const bare = await json<{ data: { slots: { startsAt: string; facilityId: string }[] } }>(`${stack.emulatorUrl}/v2/schedule/slots?${queryString(query)}`, { headers: upstreamHeaders });
      const bareMs = performance.now() - upstreamStart;
      // The list's first day: the earliest local date among the slots, each in its facility's zone.
      const firstDate = bare.data.slots.map((slot) => localDateOf(Date.parse(slot.startsAt), zoneOf(slot.facilityId))).sort()[0];
      if (firstDate === undefined) throw new Error(`no slots from ${startDate}`);
      const expected = { count: bare.data.slots.length, firstDate };

      await form.getByLabel("From", { exact: true }).fill(query.startDate);
      await form.getByLabel("To", { exact: true }).fill(query.endDate);
      await frame.evaluate(`(${ARM_MEASUREMENT})(${JSON.stringify(expected)})`);
      const before = stack.counter.count;
      await form.getByRole("button", { name: "Search", exact: true }).click();
      const measured = await frame.evaluate<Measured>("window.__slotsBench");
      const during = stack.counter.since(before);
      if (run < SEARCH_WARMUP) continue;
      searchMs.push(measured.domMs);
      if (measured.phases) {
        toRequestMs.push(measured.phases.toRequestMs);
        bffCallMs.push(measured.phases.bffCallMs);
        afterResponseMs.push(measured.phases.afterResponseMs);
      }
      paintMs.push(measured.paintMs);
      upstreamMs.push(bareMs);
      upstreamCallsPerSearch.push(during.length);
      upstreamSlotsCallsPerSearch.push(during.filter((record) => record.route === "GET /v2/schedule/slots").length);
      slotCounts += expected.count;
    }
    // Click on a slot to "held" in the bar, one at a time; then baskets of three (each hold's time, and the three together).
    const clickToHeldMs: number[] = [];
    const basketMs: number[] = [];
    for (let run = 0; run < HOLD_RUNS; run += 1) {
      clickToHeldMs.push(await frame.evaluate<number>(`(${CLICK_TO_HELD})()`));
      await frame.evaluate(`(${RELEASE_ALL})()`);
    }
    for (let run = 0; run < BASKET_RUNS; run += 1) {
      let total = 0;
      for (let hold = 0; hold < 3; hold += 1) total += await frame.evaluate<number>(`(${CLICK_TO_HELD})()`);
      basketMs.push(total);
      await frame.evaluate(`(${RELEASE_ALL})()`);
    }
    clickToHeldMs.sort((a, b) => a - b);
    basketMs.sort((a, b) => a - b);
    const holdFigures = {
      bench: "slots-hold-chromium",
      runs: HOLD_RUNS,
      clickToHeldP50Ms: round(percentile(clickToHeldMs, 50), 1),
      clickToHeldP95Ms: round(percentile(clickToHeldMs, 95), 1),
      basketRuns: BASKET_RUNS,
      basketOfThreeP50Ms: round(percentile(basketMs, 50), 1),
      basketOfThreeP95Ms: round(percentile(basketMs, 95), 1),
      note: "click on a free slot to the holds bar listing it as held (strong check + hold + store record + paint); a basket is three such holds in a row",
    };
    for (const list of [searchMs, paintMs, upstreamMs, toRequestMs, bffCallMs, afterResponseMs]) list.sort((a, b) => a - b);
    const searchP95 = percentile(searchMs, 95);
    const upstreamP95 = percentile(upstreamMs, 95);
    const ratioP95 = searchP95 / upstreamP95;
    const searchFigures = {
      bench: "slots-search-chromium",
      providers: providerIds.length,
      days: WINDOW_DAYS,
      runs: SEARCH_RUNS,
      meanSlots: Math.round(slotCounts / SEARCH_RUNS),
      searchP50Ms: round(percentile(searchMs, 50), 1),
      searchP95Ms: round(searchP95, 1),
      searchToPaintP95Ms: round(percentile(paintMs, 95), 1),
      upstreamP50Ms: round(percentile(upstreamMs, 50), 1),
      upstreamP95Ms: round(upstreamP95, 1),
      phasesP50Ms: { clickToRequest: round(percentile(toRequestMs, 50), 1), bffCall: round(percentile(bffCallMs, 50), 1), responseToList: round(percentile(afterResponseMs, 50), 1) },
      ratioP50: round(percentile(searchMs, 50) / percentile(upstreamMs, 50), 2),
      ratioP95: round(ratioP95, 2),
      budgetRatioP95: 3,
      withinBudget: ratioP95 <= 3,
      upstreamCallsPerSearchMax: Math.max(...upstreamCallsPerSearch),
      upstreamCallsPerSearchMean: round(upstreamCallsPerSearch.reduce((sum, value) => sum + value, 0) / upstreamCallsPerSearch.length, 2),
      upstreamSlotsCallsPerSearchMax: Math.max(...upstreamSlotsCallsPerSearch),
      cacheMiss: "each run moves the 14-day window one day later (new SPA and BFF cache keys)",
      upstreamCounting: "emulator in-process; every data request it served between the click and the rendered list",
      note: "click event on Search to the DOM showing the new list: its summary counting every slot, its first day drawn, not busy (MutationObserver in the app's frame; only the rows on screen are drawn); bare call = Node fetch + JSON of GET /v2/schedule/slots, same query",
    };
    return [searchFigures, holdFigures];
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------- 2. fifty users searching

async function measureLoad(stack: Stack): Promise<Record<string, unknown>> {
  const users = await sandboxUsers(stack);
  const tokens = await Promise.all(Array.from({ length: LOAD_USERS }, (_, index) => hostToken(stack, users[index % users.length]?.id ?? "")));
  const [fu, npv, tele, ape, proc] = await Promise.all(["FU", "NPV", "TELE", "APE", "PROC"].map((abbreviation) => typeIdOf(stack, abbreviation)));
  const org = stack.emulator.state.org(ORG_A);
  const someProvider = org?.ehr.templates[0] ? toRawUuid(org.ehr.templates[0].providerId) : undefined;
  if (!fu || !npv || !tele || !ape || !proc || !someProvider) throw new Error("seed data missing");
  const today = localDateOf(Date.now(), ZONE);
  const nextMonday = addDays(today, 7 - weekdayOf(today));
  const twoWeeks = { startDate: today, endDate: addDays(today, 13) };
  const nextWeek = { startDate: nextMonday, endDate: addDays(nextMonday, 6) };
  // What a front desk asks for, give or take: the usual types at one facility or both, this fortnight or next week, a new patient now and then, a named provider.
  const combinations: SlotQuery[] = [
    { appointmentTypeId: fu, facilityIds: [FACILITIES.upperWestSide], ...twoWeeks, isNewPatient: false },
    { appointmentTypeId: fu, facilityIds: [FACILITIES.lincolnPark], ...twoWeeks, isNewPatient: false },
    { appointmentTypeId: npv, facilityIds: [FACILITIES.upperWestSide], ...twoWeeks, isNewPatient: true },
    { appointmentTypeId: npv, facilityIds: [FACILITIES.lincolnPark], ...nextWeek, isNewPatient: true },
    { appointmentTypeId: tele, facilityIds: [FACILITIES.lincolnPark, FACILITIES.upperWestSide], ...twoWeeks, isNewPatient: false },
    { appointmentTypeId: ape, facilityIds: [FACILITIES.upperWestSide], ...nextWeek, isNewPatient: false },
    { appointmentTypeId: fu, facilityIds: [FACILITIES.upperWestSide], providerIds: [someProvider], ...twoWeeks, isNewPatient: false },
    { appointmentTypeId: proc, facilityIds: [FACILITIES.lincolnPark], startDate: today, endDate: addDays(today, 27), isNewPatient: false },
  ];

  const statuses: Record<string, number> = {};
  let rateLimitedToUsers = 0;
  let failures = 0;
  const latencies: number[] = [];
  const before = stack.counter.count;
  const startedAt = performance.now();
  const endsAt = startedAt + LOAD_DURATION_MS;

  const user = async (index: number) => {
    const next = random(20261122 + index);
    let combination = combinations[Math.floor(next() * combinations.length)] as SlotQuery;
    // Spread the users over the first interval, then every 2 s on each one's own beat.
    let due = startedAt + (index / LOAD_USERS) * LOAD_INTERVAL_MS;
    while (due < endsAt) {
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      // A third of the searches change the filters.
      if (next() < 1 / 3) combination = combinations[Math.floor(next() * combinations.length)] as SlotQuery;
      const sent = performance.now();
      try {
        const response = await fetch(`${stack.appUrl}/api/slots?${queryString(combination)}`, { headers: { authorization: `Bearer ${tokens[index] ?? ""}` }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        const body = await response.text();
        latencies.push(performance.now() - sent);
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        const code = response.ok ? null : ((JSON.parse(body) as { code?: string }).code ?? null);
        if (response.status === 429 || code === "rate_limited" || code === "rate_limit_exceeded") rateLimitedToUsers += 1;
      } catch {
        failures += 1;
      }
      due += LOAD_INTERVAL_MS;
    }
  };
  await Promise.all(Array.from({ length: LOAD_USERS }, (_, index) => user(index)));
  const elapsedMs = performance.now() - startedAt;
  const upstream = stack.counter.since(before);
  latencies.sort((a, b) => a - b);
  const upstreamPerMinute = (upstream.length * 60_000) / elapsedMs;
  return {
    bench: "slots-load",
    users: LOAD_USERS,
    intervalMs: LOAD_INTERVAL_MS,
    durationMs: Math.round(elapsedMs),
    filterCombinations: combinations.length,
    requests: latencies.length + failures,
    statuses,
    failures,
    rateLimitedToUsers,
    budgetRateLimitedToUsers: 0,
    latencyP50Ms: round(percentile(latencies, 50), 1),
    latencyP95Ms: round(percentile(latencies, 95), 1),
    upstreamRequests: upstream.length,
    upstreamPerMinute: round(upstreamPerMinute, 1),
    budgetUpstreamPerMinute: 1000,
    upstream429: upstream.filter((record) => record.status === 429).length,
    upstreamByRoute: byRoute(upstream),
    withinBudget: rateLimitedToUsers === 0 && upstreamPerMinute < 1000 && failures === 0,
    upstreamCounting: "emulator in-process; every data request it served during the load",
  };
}

export async function runSlotsBench(): Promise<Record<string, unknown>[]> {
  const stack = await startStack();
  try {
    const search = await measureSearch(stack);
    const load = await measureLoad(stack);
    return [...search, load];
  } finally {
    await stack.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await runSlotsBench()) console.log(JSON.stringify(line));
}
