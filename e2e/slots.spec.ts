import { expect, test } from "./support/fixtures.ts";
import { expectAccessible, saveScreenshot } from "./support/sandbox.ts";
import {
  LINCOLN_PARK,
  UPPER_WEST_SIDE,
  addDays,
  appointmentType,
  bookInEhr,
  cancelInEhr,
  focusedInApp,
  everyListedSlot,
  hostLog,
  listedSlots,
  listDrawn,
  liveSlot,
  localDateOf,
  nextWeek,
  openSlotFinder,
  recordApiCalls,
  resetSandbox,
  results,
  resultsStatus,
  sandbox,
  search,
  searchForm,
  setFilters,
  slotButton,
  syncOrganization,
  tabUntil,
  todayIn,
  upstreamSlots,
} from "./support/slots.ts";

// The slot finder (issue: slot finding), in Chromium, inside the EHR host
// page's cross-site iframe: search, first available, the live check, hold,
// booking in the EHR over the bridge, slots gone behind the app's back,
// webhook-driven refresh, the hold's countdown and expiry, a rate-limited
// upstream, the keyboard path, accessibility. The emulator is reset before
// each test; each test searches with its own filters, since the BFF's cache
// (up to maxStalenessSeconds) outlives an emulator reset.

test.beforeEach(async () => {
  await resetSandbox();
});

test("a new patient at Lincoln Park next week: search, first available, hold, book in the EHR", async ({ page }) => {
  const npv = await appointmentType("NPV");
  const week = await nextWeek(LINCOLN_PARK.timezone);
  const expected = await upstreamSlots({ appointmentTypeId: npv.id, facilityIds: [LINCOLN_PARK.id], ...week, isNewPatient: true });
  const earliest = [...expected.slots].sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt))[0];
  if (!earliest) throw new Error("the seed has no new-patient slot at Lincoln Park next week");

  const app = await openSlotFinder(page);
  await setFilters(app, { typeId: npv.id, facilities: ["Lincoln Park"], ...week, isNewPatient: true });
  await search(app);
  await expect(resultsStatus(app)).toHaveText(new RegExp(`^${expected.slots.length.toLocaleString("en-US")} free slots?,`));
  // Only the rows on screen are drawn; scrolled through, the list has every slot, none labelled "1 left" (a single free place).
  const listed = await everyListedSlot(app);
  expect(listed.map((slot) => `${slot.startsAt}|${slot.providerId}`).sort()).toEqual(expected.slots.map((slot) => `${slot.startsAt}|${slot.providerId}`).sort());
  expect(listed.filter((slot) => /\b1 left/.test(slot.text))).toEqual([]);
  // The freshness line names the zone of its time, on the facility's clock in the reader's locale (en-US, pinned), its zone named as it differs from the browser's (UTC).
  await expect(app.getByTestId("slot-freshness")).toHaveText(/^Slots as of \d{1,2}:\d\d:\d\d [AP]M [A-Z][A-Za-z+\d:-]* \(/);
  await saveScreenshot(page, "slots-results");
  await expectAccessible(page);

  await app.getByTestId("first-available").click();
  const first = slotButton(app, earliest);
  await expect(first).toBeFocused();
  await page.keyboard.press("Enter");

  const panel = app.getByTestId("hold-panel");
  await expect(panel).toHaveAttribute("data-state", "held");
  await expect(app.getByTestId("hold-countdown")).toHaveText(/^(10:00|0\d:[0-5]\d)$/);
  // The service holds it: no capacity left to anyone else.
  expect(await liveSlot(earliest, { appointmentTypeId: npv.id, isNewPatient: true }, LINCOLN_PARK.timezone)).toBeNull();
  await saveScreenshot(page, "slots-hold-panel");
  await expectAccessible(page);

  await app.getByTestId("book-in-ehr").click();
  await expect(page.locator("#host-booking-status")).toHaveAttribute("data-state", "booked");
  await expect(page.locator("#host-booking-message")).toContainText("Booked in EHR");
  await expect(panel).toHaveAttribute("data-state", "booked");
  await expect(panel).toContainText("Booked in the EHR");
  // Focus moves to the confirmation, which names the EHR's own reference, not the raw appointment UUID.
  await expect(panel).toBeFocused();
  const booked = (await hostLog(page)).find((entry) => entry.direction === "out" && entry.type === "tandem:booked");
  const appointmentId = booked?.data?.appointmentId;
  const reference = booked?.data?.reference;
  if (typeof appointmentId !== "string" || typeof reference !== "string") throw new Error("the host page sent no tandem:booked with a reference");
  await expect(app.getByTestId("booked-reference")).toContainText(`EHR appointment ${reference}`);
  await expect(panel).not.toContainText(appointmentId);
  await expect(panel).toContainText("New Patient Visit (new patient), 60 minutes");

  // The slot's capacity is taken by the appointment only: once the EHR
  // cancels it, the slot is whole again, so no hold is left on it.
  await cancelInEhr(appointmentId);
  await expect
    .poll(async () => (await liveSlot(earliest, { appointmentTypeId: npv.id, isNewPatient: true }, LINCOLN_PARK.timezone))?.remainingCapacity ?? 0)
    .toBe(earliest.remainingCapacity);
});

test("a slot booked in the EHR behind the app's back is reported gone, with alternatives; the list drops it and nothing is held", async ({ page }) => {
  const fu = await appointmentType("FU");
  // The default search: the first type not meant for new patients (Follow-Up, as "New patient" starts unticked), the header's facility (Upper West Side), two weeks from today.
  const app = await openSlotFinder(page);
  await expect(searchForm(app).getByLabel("Appointment type")).toHaveValue(fu.id);
  await expect(searchForm(app).getByLabel("New patient")).not.toBeChecked();
  const [target] = await listedSlots(app);
  if (!target) throw new Error("the default search listed no slot");
  const selection = { appointmentTypeId: fu.id, isNewPatient: false };
  const live = await liveSlot(target, selection, UPPER_WEST_SIDE.timezone);
  if (!live) throw new Error("the first listed slot is not free in the EHR");
  // The EHR fills it (the service's cache, and so the list, does not know yet: no sync).
  const appointmentIds = await bookInEhr(live, live.remainingCapacity, fu.id);
  expect(await liveSlot(target, selection, UPPER_WEST_SIDE.timezone)).toBeNull();
  await expect(slotButton(app, target)).toHaveCount(1);

  const calls = recordApiCalls(page);
  await slotButton(app, target).click();
  const gone = app.getByTestId("slot-gone-notice");
  await expect(gone).toContainText("That time was just taken");
  await expect(gone).toContainText("is no longer free in the EHR");
  await expect(gone.getByTestId("slot-alternative").first()).toBeVisible();
  // The list is read again and no longer shows the slot.
  await expect(slotButton(app, target)).toHaveCount(0);
  await expect.poll(() => calls.findIndex((call) => call.method === "GET" && call.path === "/api/slots")).toBeGreaterThan(calls.findIndex((call) => call.path === "/api/slots/check"));
  expect(calls.filter((call) => call.path === "/api/slots/check")).toHaveLength(1);
  expect(calls.filter((call) => call.path.startsWith("/api/holds"))).toEqual([]);
  await expect(app.getByTestId("hold-panel")).toHaveCount(0);
  await saveScreenshot(page, "slots-gone-notice");
  await expectAccessible(page);

  // Nothing else holds it at the service: once the EHR frees one booking, its capacity is back.
  const [first] = appointmentIds;
  if (!first) throw new Error("no appointment booked");
  await cancelInEhr(first);
  expect((await liveSlot(target, selection, UPPER_WEST_SIDE.timezone))?.remainingCapacity).toBe(1);
});

test("a gone slot whose provider has nothing else that day: the other searched providers' times that day come first, then the next days, each naming its day and provider", async ({ page }) => {
  const npv = await appointmentType("NPV");
  const zone = UPPER_WEST_SIDE.timezone;
  const today = await todayIn(zone);
  // NPV for an existing patient at Upper West Side over the default two weeks, as the service's cache has it.
  const { slots } = await upstreamSlots({ appointmentTypeId: npv.id, facilityIds: [UPPER_WEST_SIDE.id], startDate: today, endDate: addDays(today, 13), isNewPatient: false });
  const dayOf = (slot: { startsAt: string }) => localDateOf(Date.parse(slot.startsAt), zone);
  // A provider's only slot of its day, on a day other providers still have slots.
  const lone = slots.find(
    (slot) =>
      slots.filter((other) => other.providerId === slot.providerId && dayOf(other) === dayOf(slot)).length === 1 &&
      slots.some((other) => other.providerId !== slot.providerId && dayOf(other) === dayOf(slot)),
  );
  // The pinned seed has one at every instant the suite runs at (playwright.config.ts).
  if (!lone) throw new Error("the seed has no provider's lone slot on a day with other providers' slots");

  const app = await openSlotFinder(page);
  // Choosing NPV ticks "New patient"; the front desk unticks it for a returning patient.
  await setFilters(app, { typeId: npv.id, isNewPatient: false });
  await search(app);
  await expect(slotButton(app, lone)).toHaveCount(1);
  await bookInEhr(lone, lone.remainingCapacity, npv.id);
  await slotButton(app, lone).click();
  const gone = app.getByTestId("slot-gone-notice");
  await expect(gone).toContainText("That time was just taken");
  await expect(gone.getByTestId("slot-alternative").first()).toBeVisible();
  const offered = await gone
    .getByTestId("slot-alternative")
    .evaluateAll((buttons) => buttons.map((button) => ({ startsAt: button.getAttribute("data-starts-at") ?? "", providerId: button.getAttribute("data-provider-id") ?? "", text: button.textContent?.trim() ?? "" })));
  const sameDay = offered.filter((alternative) => dayOf(alternative) === dayOf(lone));
  expect(sameDay.length, "the same day's slots of the other providers").toBeGreaterThan(0);
  expect(sameDay.every((alternative) => alternative.providerId !== lone.providerId)).toBe(true);
  // Another provider is named; another day is named, and nothing before the gone slot's day is offered.
  for (const alternative of offered) {
    expect(dayOf(alternative) >= dayOf(lone)).toBe(true);
    expect(alternative.text).toContain(" · ");
    if (dayOf(alternative) !== dayOf(lone)) expect(alternative.text).toMatch(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)/);
  }
  await saveScreenshot(page, "slots-gone-alternatives");

  // An alternative is one click away: it gets its own live check and is held.
  await gone.getByTestId("slot-alternative").first().click();
  await expect(app.getByTestId("hold-panel")).toHaveAttribute("data-state", "held");
});

test("a cancellation in the EHR reaches the open list through the webhook, without a reload", async ({ page }) => {
  const fu = await appointmentType("FU");
  const app = await openSlotFinder(page);
  await setFilters(app, { typeId: fu.id });
  await search(app);
  await app.locator("body").evaluate((body: HTMLElement) => body.setAttribute("data-loaded-once", "yes"));
  const selection = { appointmentTypeId: fu.id, isNewPatient: false };
  const [, target] = await listedSlots(app);
  if (!target) throw new Error("the follow-up search listed fewer than two slots");
  const live = await liveSlot(target, selection, UPPER_WEST_SIDE.timezone);
  if (!live) throw new Error("the slot is not free in the EHR");

  // Booked in the EHR, then synced: appointment.created → webhook → the BFF drops its cache → live event → the list refetches.
  const appointmentIds = await bookInEhr(live, live.remainingCapacity, fu.id);
  const booked = await syncOrganization();
  expect(booked.results.flatMap((result) => result.events.map((event) => event.type))).toContain("appointment.created");
  await expect(slotButton(app, target)).toHaveCount(0, { timeout: 15_000 });

  // Cancelled in the EHR, then synced: the slot comes back to the open list.
  for (const id of appointmentIds) await cancelInEhr(id);
  const cancelled = await syncOrganization();
  expect(cancelled.results.flatMap((result) => result.events.map((event) => event.type))).toContain("appointment.cancelled");
  await expect(slotButton(app, target)).toHaveCount(1, { timeout: 15_000 });
  await expect(app.locator("body")).toHaveAttribute("data-loaded-once", "yes");
});

test("a hold counts down in mm:ss and is given back on Release", async ({ page }) => {
  const ape = await appointmentType("APE");
  const app = await openSlotFinder(page);
  await setFilters(app, { typeId: ape.id });
  await search(app);
  const selection = { appointmentTypeId: ape.id, isNewPatient: false };
  const [target] = await listedSlots(app);
  if (!target) throw new Error("no slot listed");
  const before = await liveSlot(target, selection, UPPER_WEST_SIDE.timezone);
  if (!before) throw new Error("the slot is not free in the EHR");

  await slotButton(app, target).click();
  const panel = app.getByTestId("hold-panel");
  await expect(panel).toHaveAttribute("data-state", "held");
  const countdown = app.getByTestId("hold-countdown");
  await expect(countdown).toHaveText(/^(10:00|09:[0-5]\d)$/);
  const shown = await countdown.innerText();
  await expect(countdown).not.toHaveText(shown);
  await expect(countdown).toHaveText(/^09:[0-5]\d$/);
  expect((await liveSlot(target, selection, UPPER_WEST_SIDE.timezone))?.remainingCapacity ?? 0).toBe(before.remainingCapacity - 1);

  await app.getByTestId("release-hold").click();
  await expect(app.getByRole("status").filter({ hasText: "Released the hold on" })).toBeVisible();
  await expect(panel).toHaveCount(0);
  await expect.poll(async () => (await liveSlot(target, selection, UPPER_WEST_SIDE.timezone))?.remainingCapacity ?? 0).toBe(before.remainingCapacity);
});

test("an expiring hold: the service's clock alone changes nothing on screen; the browser's ten minutes end it and give the slot back", async ({ page }) => {
  // The browser's clock (installed by the fixture) runs at normal speed until fast-forwarded.
  const proc = await appointmentType("PROC");
  const app = await openSlotFinder(page);
  await setFilters(app, { typeId: proc.id });
  await search(app);
  const selection = { appointmentTypeId: proc.id, isNewPatient: false };
  const [target] = await listedSlots(app);
  if (!target) throw new Error("no slot listed");
  const before = await liveSlot(target, selection, UPPER_WEST_SIDE.timezone);
  if (!before) throw new Error("the slot is not free in the EHR");
  await slotButton(app, target).click();
  const panel = app.getByTestId("hold-panel");
  const countdown = app.getByTestId("hold-countdown");
  await expect(panel).toHaveAttribute("data-state", "held");

  // The service's clock passes the hold's 10 minutes: the service frees the slot,
  // but the app counts from its own clock and still shows it held.
  await sandbox("POST", "/clock", { advanceSeconds: 600 });
  expect((await liveSlot(target, selection, UPPER_WEST_SIDE.timezone))?.remainingCapacity).toBe(before.remainingCapacity);
  await expect(panel).toHaveAttribute("data-state", "held");
  await expect(countdown).toHaveText(/^(10:00|09:[0-5]\d)$/);
  // The service's clock back to where it was: the hold is live again there (its expiry is still ahead).
  await sandbox("POST", "/clock", { advanceSeconds: -600 });
  expect((await liveSlot(target, selection, UPPER_WEST_SIDE.timezone))?.remainingCapacity ?? 0).toBe(before.remainingCapacity - 1);

  // The browser's ten minutes pass: the panel says the hold has expired, and the app gives the slot back.
  await page.clock.fastForward("10:01");
  await expect(panel).toHaveAttribute("data-state", "expired");
  await expect(panel).toContainText("The hold has expired");
  await expect(panel.getByRole("button", { name: "Dismiss" })).toBeVisible();
  await expect(app.getByTestId("book-in-ehr")).toHaveCount(0);
  await expect.poll(async () => (await liveSlot(target, selection, UPPER_WEST_SIDE.timezone))?.remainingCapacity ?? 0).toBe(before.remainingCapacity);
  // Search again reads the list afresh: the slot is offered again, free to hold.
  await panel.getByRole("button", { name: "Search again" }).click();
  await expect(panel).toHaveCount(0);
  await listDrawn(app);
  await expect(slotButton(app, target)).toBeEnabled();
});

test("a rate-limited upstream says when to retry, and Try again works once it clears", async ({ page }) => {
  const tele = await appointmentType("TELE");
  const expected = await upstreamSlots({ appointmentTypeId: tele.id, facilityIds: [UPPER_WEST_SIDE.id], startDate: await todayIn(UPPER_WEST_SIDE.timezone), endDate: addDays(await todayIn(UPPER_WEST_SIDE.timezone), 13), isNewPatient: false });
  const app = await openSlotFinder(page);
  // Every slot read answers 429 (Retry-After: 1) until cleared: more than the BFF's client retries, so it gives up.
  await sandbox("POST", "/faults", { method: "GET", path: "/v2/schedule/slots", status: 429, count: 30 });
  await setFilters(app, { typeId: tele.id });
  const calls = recordApiCalls(page);
  await searchForm(app).getByRole("button", { name: "Search", exact: true }).click();
  const problem = results(app).getByRole("alert");
  await expect(problem).toContainText("The clinic data service is busy", { timeout: 20_000 });
  await expect(problem).toContainText(/Try again in \d+ seconds?\./);
  // A read changes nothing, so it does not say "Nothing was changed"; the wait counts down to zero.
  await expect(problem).not.toContainText("Nothing was changed");
  await expect(problem.getByTestId("retry-countdown")).toHaveText("You can try again now.");
  await expect(problem.getByRole("button", { name: "Try again" })).toBeVisible();
  // The summary says the search failed, never "Choose filters and search".
  await expect(resultsStatus(app)).toHaveText("The search did not complete: no list for these filters yet.");
  await saveScreenshot(page, "slots-rate-limited");
  await expectAccessible(page);
  // One search by the user is one BFF read, which tries the service at most 1 + 2 times (its Retry-After retries).
  const { faults } = await sandbox<{ faults: { hits: number }[] }>("GET", "/faults");
  expect.soft(calls.filter((call) => call.path === "/api/slots"), "the app asks the BFF again after a rate_limited answer").toHaveLength(1);
  expect.soft(faults[0]?.hits ?? 0, "upstream slot reads caused by one search while rate-limited").toBeLessThanOrEqual(3);

  await sandbox("DELETE", "/faults");
  await problem.getByRole("button", { name: "Try again" }).click();
  await expect(problem).toHaveCount(0);
  await expect(resultsStatus(app)).toHaveText(new RegExp(`^${expected.slots.length.toLocaleString("en-US")} free slots?,`));
  expect(await everyListedSlot(app)).toHaveLength(expected.slots.length);
});

test("the keyboard-only path: into the form, search with Enter, arrows through slots, Enter to hold, book", async ({ page }) => {
  const proc = await appointmentType("PROC");
  const app = await openSlotFinder(page, { keyboard: true });
  await tabUntil(page, app, (element) => element.tag === "select" && element.label === "Appointment type");
  // Type-ahead on the closed select: "M" is Minor Procedure.
  await page.keyboard.press("m");
  await expect(searchForm(app).getByLabel("Appointment type")).toHaveValue(proc.id);
  await tabUntil(page, app, (element) => element.tag === "input" && element.label === "Slot length (minutes)");
  await page.keyboard.press("Enter");
  await expect(results(app)).toHaveAttribute("aria-busy", "false");
  const expected = await upstreamSlots({ appointmentTypeId: proc.id, facilityIds: [UPPER_WEST_SIDE.id], startDate: await todayIn(UPPER_WEST_SIDE.timezone), endDate: addDays(await todayIn(UPPER_WEST_SIDE.timezone), 13), isNewPatient: false });
  await expect(resultsStatus(app)).toHaveText(new RegExp(`^${expected.slots.length.toLocaleString("en-US")} free slots?,`));

  const listed = await listedSlots(app);
  // One tab stop for the whole list: the first slot.
  await tabUntil(page, app, (element) => element.testId === "slot");
  expect((await focusedInApp(app)).startsAt).toBe(listed[0]?.startsAt);
  await page.keyboard.press("ArrowRight");
  expect(await focusedInApp(app)).toMatchObject({ startsAt: listed[1]?.startsAt, providerId: listed[1]?.providerId });
  const onSecond = await focusedInApp(app);
  await page.keyboard.press("ArrowDown");
  const below = await focusedInApp(app);
  expect(below.testId).toBe("slot");
  expect(below.group).not.toBe(onSecond.group);
  await page.keyboard.press("ArrowUp");
  expect(await focusedInApp(app)).toMatchObject({ startsAt: onSecond.startsAt, providerId: onSecond.providerId });
  await page.keyboard.press("ArrowLeft");
  expect((await focusedInApp(app)).startsAt).toBe(listed[0]?.startsAt);

  await page.keyboard.press("Enter");
  await expect(app.getByTestId("hold-panel")).toHaveAttribute("data-state", "held");
  const first = listed[0];
  if (!first) throw new Error("no slot listed");
  await expect(slotButton(app, first)).toHaveAttribute("aria-current", "true");
  await tabUntil(page, app, (element) => element.testId === "book-in-ehr");
  await page.keyboard.press("Enter");
  await expect(page.locator("#host-booking-status")).toHaveAttribute("data-state", "booked");
  await expect(app.getByTestId("hold-panel")).toHaveAttribute("data-state", "booked");
});

test("an empty result says so, offers wider searches, and is accessible", async ({ page }) => {
  const fu = await appointmentType("FU");
  const today = await todayIn(LINCOLN_PARK.timezone);
  let emptyDay: string | null = null;
  for (let offset = 1; offset <= 14 && emptyDay === null; offset += 1) {
    const day = addDays(today, offset);
    const { slots } = await upstreamSlots({ appointmentTypeId: fu.id, facilityIds: [LINCOLN_PARK.id], startDate: day, endDate: day, isNewPatient: false });
    if (slots.length === 0) emptyDay = day;
  }
  if (emptyDay === null) throw new Error("no day without follow-up slots at Lincoln Park in the next two weeks");

  const app = await openSlotFinder(page);
  await setFilters(app, { typeId: fu.id, facilities: ["Lincoln Park"], startDate: emptyDay, endDate: emptyDay });
  await search(app);
  await expect(resultsStatus(app)).toHaveText(/^0 free slots,/);
  await expect(app.getByTestId("slot")).toHaveCount(0);
  await expect(results(app)).toContainText("No free slots in this window");
  await expect(results(app).getByRole("button", { name: "Widen to 4 weeks" })).toBeVisible();
  await expect(app.getByTestId("next-available").first()).toBeVisible();
  await saveScreenshot(page, "slots-empty");
  await expectAccessible(page);
});

test("while a search with new filters is in flight, the previous list is marked stale and cannot be held; a hold carries the type and length of its list", async ({ page }) => {
  const [fu, tele] = [await appointmentType("FU"), await appointmentType("TELE")];
  const app = await openSlotFinder(page);
  await expect(searchForm(app).getByLabel("Appointment type")).toHaveValue(fu.id);
  // The service answers the next slot read slowly: the Telehealth search stays in flight.
  await sandbox("POST", "/faults", { method: "GET", path: "/v2/schedule/slots", latencyMs: 3_000, count: 1 });
  // A window no other test searches: the BFF's cache outlives the emulator's reset.
  await setFilters(app, { typeId: tele.id, endDate: addDays(await todayIn(UPPER_WEST_SIDE.timezone), 10) });
  const calls = recordApiCalls(page);
  await searchForm(app).getByRole("button", { name: "Search", exact: true }).click();

  const list = app.getByTestId("slot-list");
  await expect(list).toHaveAttribute("data-stale", "true");
  await expect(results(app)).toContainText("This list is from your previous search");
  await expect(results(app)).toContainText(/It is for Follow-Up Visit, 20 min and cannot be held/);
  await saveScreenshot(page, "slots-stale-list");
  // A click on an old slot (with the real pointer, at its place on screen) checks and holds nothing.
  const [oldSlot] = await listedSlots(app);
  if (!oldSlot) throw new Error("the default search listed no slot");
  const box = await slotButton(app, oldSlot).boundingBox();
  if (!box) throw new Error("the old slot is not on screen");
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(app.getByTestId("hold-panel")).toHaveCount(0);
  expect(calls.filter((call) => call.path === "/api/slots/check" || call.path === "/api/holds")).toEqual([]);

  // The Telehealth list arrives: actionable again, and what is held is a 15-minute Telehealth visit.
  await expect(list).toHaveAttribute("data-stale", "false", { timeout: 15_000 });
  await expect(results(app)).not.toContainText("This list is from your previous search");
  const [teleSlot] = await listedSlots(app);
  if (!teleSlot) throw new Error("the Telehealth search listed no slot");
  const holdRequest = page.waitForRequest((request) => request.method() === "POST" && new URL(request.url()).pathname === "/api/holds");
  await slotButton(app, teleSlot).click();
  const held = JSON.parse((await holdRequest).postData() ?? "{}") as { appointmentTypeId?: string; isNewPatient?: boolean };
  expect(held).toMatchObject({ appointmentTypeId: tele.id, isNewPatient: false });
  await expect(app.getByTestId("hold-panel")).toHaveAttribute("data-state", "held");
  await expect(app.getByTestId("held-appointment-type")).toHaveText("Telehealth Visit, 15 minutes");
});

for (const [width, fromDay] of [[400, 40], [1280, 48]] as const) {
  test(`at ${width} px a slow search shows it is running on the Search button pressed, not only a screen below; the button keeps its name`, async ({ page }) => {
    await page.setViewportSize({ width, height: 860 });
    const app = await openSlotFinder(page);
    // A window no other test searches, answered slowly.
    const today = await todayIn(UPPER_WEST_SIDE.timezone);
    await setFilters(app, { startDate: addDays(today, fromDay), endDate: addDays(today, fromDay + 6) });
    await sandbox("POST", "/faults", { method: "GET", path: "/v2/schedule/slots", latencyMs: 3_000, count: 1 });
    const button = searchForm(app).getByRole("button", { name: "Search", exact: true });
    await button.click();
    await expect(button.getByTestId("spinner")).toBeInViewport();
    await expect(button).toHaveAccessibleDescription("Searching");
    await saveScreenshot(page, `slots-searching-${width}`);
    await expect(resultsStatus(app)).toHaveText(/free slots?,/, { timeout: 15_000 });
    await expect(button.getByTestId("spinner")).toHaveCount(0);
  });
}

for (const width of [400, 1280]) {
  test(`in time order at ${width} px, every slot's provider and facility are read whole, not cut short`, async ({ page }) => {
    await page.setViewportSize({ width, height: 860 });
    const app = await openSlotFinder(page);
    await setFilters(app, { facilities: ["Upper West Side", "Lincoln Park"] });
    await search(app);
    await app.getByTestId("order-time").click();
    const list = app.getByTestId("slot-list-rows");
    await expect(list.locator("h3").first()).toHaveText(/^From /);
    // The names in the chips drawn: the facilities' differ only after their shared "Riverside …" words.
    const names = await list.evaluate((element) =>
      [...element.querySelectorAll<HTMLElement>('[data-testid="slot"] span.text-xs')].map((span) => ({ text: span.textContent, cut: span.scrollWidth > span.clientWidth + 1 || span.scrollHeight > span.clientHeight + 1 })),
    );
    expect(names.map((name) => name.text)).toEqual(expect.arrayContaining([UPPER_WEST_SIDE.name, LINCOLN_PARK.name]));
    expect(names.filter((name) => name.cut)).toEqual([]);
    await saveScreenshot(page, `slots-time-order-names-${width}`);
  });
}
