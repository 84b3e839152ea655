import { expect, type FrameLocator, type Locator, type Page } from "@playwright/test";
import { addDays, localDateOf, weekdayOf } from "#contract/time/zoned-time.ts";
import { ORG_A, openInHost, sandbox, sandboxNotes, sandboxNow, upstream, userWithRole } from "./sandbox.ts";

export { recordApiCalls, resetSandbox, sandbox } from "./sandbox.ts";

// What the slot finder specs share: the sandbox controls they drive (reset,
// faults, EHR bookings, sync), direct reads of the emulator's slots (to know
// what the app should show, and to check holds from the service's side), and
// the slot view's form.

export const UPPER_WEST_SIDE = { id: "decb7415-a45c-4b13-8593-61ec146879bf", name: "Riverside Health - Upper West Side", timezone: "America/New_York" };
export const LINCOLN_PARK = { id: "1b566c2c-b5f1-4bbf-beb3-23271408baaa", name: "Riverside Dermatology - Lincoln Park", timezone: "America/Chicago" };

export interface UpstreamSlot {
  providerId: string;
  facilityId: string;
  startsAt: string;
  endsAt: string;
  remainingCapacity: number;
}

export interface AppointmentType {
  id: string;
  name: string;
  abbreviation: string;
}

export async function syncOrganization(organizationId = ORG_A): Promise<{ results: { changes: unknown[]; events: { type: string }[] }[] }> {
  return sandbox("POST", "/sync", { organizationId });
}

export async function appointmentTypes(): Promise<AppointmentType[]> {
  return (await upstream<{ appointmentTypes: AppointmentType[] }>("/v3/appointment-types")).appointmentTypes;
}

export async function appointmentType(abbreviation: string): Promise<AppointmentType> {
  const type = (await appointmentTypes()).find((candidate) => candidate.abbreviation === abbreviation);
  if (!type) throw new Error(`no appointment type ${abbreviation}`);
  return type;
}

export interface SlotQuery {
  appointmentTypeId: string;
  facilityIds?: string[];
  providerIds?: string[];
  startDate: string;
  endDate: string;
  isNewPatient?: boolean;
  consistency?: "cached" | "strong";
}

export async function upstreamSlots(query: SlotQuery): Promise<{ slots: UpstreamSlot[]; nextAvailableByProvider: Record<string, string> }> {
  const params = new URLSearchParams({ appointmentTypeId: query.appointmentTypeId, startDate: query.startDate, endDate: query.endDate });
  if (query.facilityIds) params.set("facilityIds", query.facilityIds.join(","));
  if (query.providerIds) params.set("providerIds", query.providerIds.join(","));
  if (query.isNewPatient !== undefined) params.set("isNewPatient", String(query.isNewPatient));
  if (query.consistency) params.set("consistency", query.consistency);
  return upstream(`/v2/schedule/slots?${params.toString()}`);
}

/** The raw UUID of a `prv_`/`fac_` id (or the UUID itself). */
export function rawUuid(id: string): string {
  const hex = id.replace(/^[a-z]+_/, "").replaceAll("-", "").toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const sameSlot = (a: Pick<UpstreamSlot, "providerId" | "facilityId" | "startsAt">, b: Pick<UpstreamSlot, "providerId" | "facilityId" | "startsAt">) =>
  rawUuid(a.providerId) === rawUuid(b.providerId) && rawUuid(a.facilityId) === rawUuid(b.facilityId) && Date.parse(a.startsAt) === Date.parse(b.startsAt);

/** The slot as the EHR has it now (`consistency=strong`), or null when it has no capacity left. */
export async function liveSlot(slot: Pick<UpstreamSlot, "providerId" | "facilityId" | "startsAt">, type: { appointmentTypeId: string; isNewPatient?: boolean }, zone: string): Promise<UpstreamSlot | null> {
  const date = localDateOf(Date.parse(slot.startsAt), zone);
  const { slots } = await upstreamSlots({ ...type, providerIds: [rawUuid(slot.providerId)], facilityIds: [rawUuid(slot.facilityId)], startDate: date, endDate: date, consistency: "strong" });
  return slots.find((candidate) => sameSlot(candidate, slot)) ?? null;
}

/** Books `count` appointments in the EHR on exactly this slot (behind the app's back); answers their ids. */
export async function bookInEhr(slot: Pick<UpstreamSlot, "providerId" | "facilityId" | "startsAt" | "endsAt">, count = 1, appointmentTypeId?: string): Promise<string[]> {
  const patients = [...new Set((await sandboxNotes(ORG_A)).map((note) => note.patientId))];
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const { appointment } = await sandbox<{ appointment: { id: string } }>("POST", `/ehr/${ORG_A}/appointments`, {
      patientId: patients[i % patients.length],
      providerId: rawUuid(slot.providerId),
      facilityId: rawUuid(slot.facilityId),
      startsAt: slot.startsAt,
      endsAt: slot.endsAt,
      ...(appointmentTypeId ? { appointmentTypeId } : {}),
    });
    ids.push(appointment.id);
  }
  return ids;
}

export async function cancelInEhr(appointmentId: string): Promise<void> {
  await sandbox("PATCH", `/ehr/${ORG_A}/appointments/${appointmentId}`, { status: "cancelled" });
}

/** Today in the zone, on the sandbox's pinned clock (the emulator's, the BFF's and the browser's). */
export const todayIn = async (zone: string) => localDateOf(await sandboxNow(), zone);

/** Monday to Sunday of next week, local dates in the zone. */
export async function nextWeek(zone: string): Promise<{ startDate: string; endDate: string }> {
  const today = await todayIn(zone);
  // weekdayOf: 0 Monday … 6 Sunday.
  const monday = addDays(today, 7 - weekdayOf(today));
  return { startDate: monday, endDate: addDays(monday, 6) };
}

export { addDays, localDateOf };

/** The front-desk user (or one of another role) and a patient in view: the person on the phone. */
export async function frontDeskSession(role = "Front Desk"): Promise<{ userId: string; patientId: string }> {
  const [frontDesk, notes] = await Promise.all([userWithRole(ORG_A, role), sandboxNotes(ORG_A)]);
  const patientId = notes[0]?.patientId;
  if (!patientId) throw new Error("no patient in org A");
  return { userId: frontDesk.id, patientId };
}

/**
 * Opens the host page as front desk (or `role`: a user of their own, for a
 * test that leaves what no later test may meet, such as a hold the EHR may
 * have made) with a patient, and the app's slot finder (with the pointer, or
 * by Tab and Enter from the host page); waits for the first (default) search
 * to be answered.
 */
export async function openSlotFinder(page: Page, options: { keyboard?: boolean; role?: string } = {}): Promise<FrameLocator> {
  const { userId, patientId } = await frontDeskSession(options.role);
  const app = await openInHost(page, { org: ORG_A, user: userId, patient: patientId, note: "none" });
  const link = app.getByRole("navigation", { name: "Tandem" }).getByRole("link", { name: "Slots" });
  if (options.keyboard) {
    await expect(link).toBeVisible();
    await tabUntil(page, app, (element) => element.tag === "a" && element.text === "Slots");
    await page.keyboard.press("Enter");
  } else {
    await link.click();
  }
  await expect(app.getByRole("heading", { name: "Find a slot" })).toBeVisible();
  await expect(resultsStatus(app)).toHaveText(/free slots?,/, { timeout: 15_000 });
  await listDrawn(app);
  return app;
}

export const searchForm = (app: FrameLocator) => app.getByTestId("slot-search");
export const results = (app: FrameLocator) => app.getByTestId("slot-results");
/** The results toolbar's status line ("12 free slots, Mon 23 Nov to Sun 29 Nov"). */
export const resultsStatus = (app: FrameLocator) => results(app).getByRole("status").first();
/** The count the status line starts with ("18,968 free slots, …"). */
export const listedCount = async (app: FrameLocator) => Number(/^([\d,]+) free/.exec((await resultsStatus(app).textContent()) ?? "")?.[1]?.replaceAll(",", ""));

export function slotButton(app: FrameLocator, slot: Pick<UpstreamSlot, "providerId" | "startsAt">): Locator {
  return app.locator(`[data-testid="slot"][data-starts-at="${slot.startsAt}"][data-provider-id="${slot.providerId}"]`);
}

export interface FilterChoice {
  typeId?: string;
  /** Facility names to tick (the others are cleared). */
  facilities?: string[];
  startDate?: string;
  endDate?: string;
  isNewPatient?: boolean;
}

/** Sets the form's filters with the pointer, as a user would (Search is not pressed). */
export async function setFilters(app: FrameLocator, choice: FilterChoice): Promise<void> {
  const form = searchForm(app);
  if (choice.typeId) await form.getByLabel("Appointment type").selectOption(choice.typeId);
  if (choice.facilities) {
    await form.getByRole("button", { name: /^Facilities/ }).click();
    const popover = app.getByRole("dialog", { name: "Choose facilities" });
    await popover.getByRole("button", { name: /^Clear/ }).click();
    for (const name of choice.facilities) await popover.getByRole("checkbox", { name: new RegExp(name) }).click();
    await popover.getByRole("button", { name: "Done" }).click();
    await expect(popover).toBeHidden();
  }
  if (choice.startDate) await form.getByLabel("From", { exact: true }).fill(choice.startDate);
  if (choice.endDate) await form.getByLabel("To", { exact: true }).fill(choice.endDate);
  if (choice.isNewPatient !== undefined) await form.getByLabel("New patient").setChecked(choice.isNewPatient);
}

/** A search with every filter set (the specs that reload check each one comes back): `typeId`, two facilities, `week`, new patient, 30 min, afternoons, Tue–Thu. */
export async function setEveryFilter(app: FrameLocator, typeId: string, week: { startDate: string; endDate: string }): Promise<void> {
  const form = searchForm(app);
  await setFilters(app, { typeId, facilities: ["Upper West Side", "Lincoln Park"], ...week, isNewPatient: true });
  await form.getByRole("textbox", { name: "Slot length (minutes)" }).fill("30");
  await form.getByRole("group", { name: "Times of day" }).getByRole("button", { name: "Afternoons" }).click();
  for (const day of ["Tue", "Wed", "Thu"]) await form.getByRole("group", { name: "Weekdays" }).getByRole("button", { name: day, exact: true }).click();
}

/** The form shows the search `setEveryFilter` made, in time order. */
export async function expectEveryFilterShown(app: FrameLocator, typeId: string, week: { startDate: string; endDate: string }): Promise<void> {
  const form = searchForm(app);
  await expect(form.getByLabel("Appointment type")).toHaveValue(typeId);
  await expect(form.getByLabel("From", { exact: true })).toHaveValue(week.startDate);
  await expect(form.getByLabel("To", { exact: true })).toHaveValue(week.endDate);
  await expect(form.getByRole("textbox", { name: "Slot length (minutes)" })).toHaveValue("30");
  await expect(form.getByLabel("New patient")).toBeChecked();
  await expect(form.getByRole("button", { name: /^Facilities/ })).toContainText("2 facilities");
  await expect(form.getByRole("group", { name: "Times of day" }).getByRole("button", { name: "Afternoons" })).toHaveAttribute("aria-pressed", "true");
  for (const day of ["Tue", "Wed", "Thu"]) await expect(form.getByRole("group", { name: "Weekdays" }).getByRole("button", { name: day, exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(app.getByTestId("order-time")).toHaveAttribute("aria-pressed", "true");
}

/** Presses Search and waits for the list of that search (the status line names the window's first day). */
export async function search(app: FrameLocator): Promise<void> {
  await searchForm(app).getByRole("button", { name: "Search", exact: true }).click();
  await expect(results(app)).toHaveAttribute("aria-busy", "false", { timeout: 15_000 });
  await expect(resultsStatus(app)).not.toHaveText(/Searching/);
  await listDrawn(app);
}

/** A wide search lists its first days while the later ones load (ADR 0031): wait for the whole list. */
export async function listDrawn(app: FrameLocator): Promise<void> {
  await expect(resultsStatus(app)).not.toContainText("so far");
}

/** Every slot button's identity on screen, in DOM order. */
export async function listedSlots(app: FrameLocator): Promise<{ startsAt: string; providerId: string; facilityId: string }[]> {
  return app.getByTestId("slot").evaluateAll((buttons) =>
    buttons.map((button) => ({ startsAt: button.getAttribute("data-starts-at") ?? "", providerId: button.getAttribute("data-provider-id") ?? "", facilityId: button.getAttribute("data-facility-id") ?? "" })),
  );
}

/**
 * Every slot of the list, in list order, read as a user would: scrolling the frame a screen at a time from the
 * list's top to its end (only the rows on screen are drawn), then back to where it was.
 */
export async function everyListedSlot(app: FrameLocator): Promise<{ startsAt: string; providerId: string; facilityId: string; text: string }[]> {
  return app.getByTestId("slot-list-rows").evaluate(async (list) => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    // The rows drawn cover the part of the list on screen: on a busy machine the list may draw them a few frames after a scroll.
    const isScreenDrawn = () => {
      const bounds = list.getBoundingClientRect();
      const top = Math.max(bounds.top, 0);
      const bottom = Math.min(bounds.bottom, window.innerHeight);
      const rows = [...list.querySelectorAll<HTMLElement>(":scope > [data-index]")].map((row) => row.getBoundingClientRect());
      return rows.length > 0 && Math.min(...rows.map((row) => row.top)) <= top + 1 && Math.max(...rows.map((row) => row.bottom)) >= bottom - 1;
    };
    const seen = new Map<string, { startsAt: string; providerId: string; facilityId: string; text: string }>();
    const startedAt = window.scrollY;
    list.scrollIntoView({ block: "start" });
    for (let screen = 0; screen < 500; screen += 1) {
      await frame();
      for (let wait = 0; wait < 100 && !isScreenDrawn(); wait += 1) await frame();
      for (const button of list.querySelectorAll<HTMLElement>('[data-testid="slot"]')) {
        const key = button.dataset.slotKey ?? `${button.dataset.startsAt}|${button.dataset.providerId}`;
        if (!seen.has(key)) seen.set(key, { startsAt: button.dataset.startsAt ?? "", providerId: button.dataset.providerId ?? "", facilityId: button.dataset.facilityId ?? "", text: button.textContent ?? "" });
      }
      if (list.getBoundingClientRect().bottom <= window.innerHeight) break;
      const before = window.scrollY;
      window.scrollBy(0, window.innerHeight * 0.7);
      if (window.scrollY === before) break;
    }
    window.scrollTo(0, startedAt);
    await frame();
    return [...seen.values()];
  });
}

/** What the host page's bridge sent and received (`window.__tandemHost.log`). */
export async function hostLog(page: Page): Promise<{ direction: string; type: string; data?: Record<string, unknown> }[]> {
  return page.evaluate(() => (window as unknown as { __tandemHost?: { log: { direction: string; type: string; data?: Record<string, unknown> }[] } }).__tandemHost?.log ?? []);
}

export interface FocusedElement {
  /** Whether the app's document has the focus at all (else the host page has it). */
  inApp: boolean;
  tag: string;
  type: string | null;
  text: string;
  /** The first label's text, for form controls. */
  label: string | null;
  testId: string | null;
  startsAt: string | null;
  providerId: string | null;
  /** The slot row (provider and day) a slot is in: its group's labelling heading id. */
  group: string | null;
}

/** The element that has the keyboard focus inside the app's frame. */
export async function focusedInApp(app: FrameLocator): Promise<FocusedElement> {
  return app.locator(":root").evaluate((): FocusedElement => {
    const element = document.activeElement;
    const inApp = document.hasFocus() && element !== null && element !== document.body;
    const labels = element && "labels" in element ? (element as HTMLInputElement).labels : null;
    return {
      inApp,
      tag: inApp && element ? element.tagName.toLowerCase() : "",
      type: element?.getAttribute("type") ?? null,
      text: element?.textContent?.trim() ?? "",
      label: labels?.[0]?.textContent?.trim() ?? null,
      testId: element?.getAttribute("data-testid") ?? null,
      startsAt: element?.getAttribute("data-starts-at") ?? null,
      providerId: element?.getAttribute("data-provider-id") ?? null,
      group: element?.closest("[role=group]")?.getAttribute("aria-labelledby") ?? null,
    };
  });
}

/** Presses Tab (from wherever the focus is, host page included) until the app's focused element matches; fails after `max` presses. */
export async function tabUntil(page: Page, app: FrameLocator, matches: (element: FocusedElement) => boolean, max = 40): Promise<FocusedElement> {
  const seen: string[] = [];
  for (let presses = 0; presses < max; presses += 1) {
    await page.keyboard.press("Tab");
    const focused = await focusedInApp(app);
    if (focused.inApp && matches(focused)) return focused;
    seen.push(focused.inApp ? `${focused.tag}${focused.testId ? `[${focused.testId}]` : ""} ${focused.label ?? focused.text.slice(0, 30)}` : "(host page)");
  }
  throw new Error(`Tab did not reach the element after ${max} presses; focus went: ${seen.join(" → ")}`);
}
