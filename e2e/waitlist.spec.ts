import type { FrameLocator, Page } from "@playwright/test";
import { weekdayOf } from "#contract/time/zoned-time.ts";
import { expect, test } from "./support/fixtures.ts";
import { holdsOf } from "./support/holds.ts";
import { ORG_A, appUrl, expectAccessible, openInHost, sandbox, sandboxNow, saveScreenshot } from "./support/sandbox.ts";
import { UPPER_WEST_SIDE, addDays, appointmentType, cancelInEhr, frontDeskSession, openSlotFinder, resetSandbox, search, searchForm, setFilters, syncOrganization, todayIn } from "./support/slots.ts";
import { addFollowUpToWaitlist, bookInEhrFor, callAppWithPatient, colleagueOf, endEveryWaitlistEntry, morningSlots, otherPatientThan, preferencesOf, waitlistOf } from "./support/waitlist.ts";

// Issue 38 through the host page: a front desk adds the patient on the phone
// to the waitlist from the slot finder; a cancellation synced from the EHR
// frees a slot that fits; every front-desk colleague's Tandem shows the offer
// whatever view is open; one holds it for the waitlisted patient, every tab's
// alert says so, the booking is made in the EHR with that patient open, and
// the entry ends. The seeds' event rules: a first sighting already cancelled
// (possibly history) alerts no one; a delivery duplicated and reordered alerts
// once per freed slot.

const WEEKDAY_LABELS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

test.beforeEach(async () => {
  await resetSandbox();
  await endEveryWaitlistEntry((await frontDeskSession()).userId);
});

test.afterEach(async () => {
  await endEveryWaitlistEntry((await frontDeskSession()).userId);
});

/** A colleague's own browser tab on the host page (another user), its clock the sandbox's. */
async function colleagueTab(page: Page, userId: string, width?: number): Promise<{ tab: Page; app: FrameLocator }> {
  const tab = await page.context().newPage();
  if (width !== undefined) await tab.setViewportSize({ width, height: 860 });
  await tab.clock.install({ time: await sandboxNow() });
  const app = await openInHost(tab, { org: ORG_A, user: userId, patient: "none", note: "none" });
  return { tab, app };
}

const nav = (app: FrameLocator) => app.getByRole("navigation", { name: "Tandem" });
const offerCard = (app: FrameLocator, startsAt: string) => app.locator(`[data-testid="waitlist-offer"][data-starts-at="${startsAt}"]`);

test("a patient added from the slot finder is offered the slot a cancellation frees, in a colleague's tab whatever view is open, once; held for them there and booked in the EHR, the entry ends", async ({ page }) => {
  const fu = await appointmentType("FU");
  const zone = UPPER_WEST_SIDE.timezone;
  const today = await todayIn(zone);
  const { userId, patientId } = await frontDeskSession();
  const colleague = await colleagueOf(userId);
  // A morning follow-up in two days, booked in the EHR for another patient (synced: the service has seen it).
  const day = addDays(today, 2);
  const [target] = await morningSlots(fu.id, day);
  if (!target) throw new Error("no morning follow-up slot in two days");
  const appointmentId = await bookInEhrFor(target, await otherPatientThan(patientId), fu.id);
  await syncOrganization();

  // The patient on the phone wants mornings, on that weekday: nothing suits, so onto the waitlist.
  const app = await openSlotFinder(page);
  await setFilters(app, { typeId: fu.id, facilities: ["Upper West Side"], startDate: today, endDate: addDays(today, 6) });
  const form = searchForm(app);
  await form.getByRole("group", { name: "Times of day" }).getByRole("button", { name: "Mornings" }).click();
  const weekday = WEEKDAY_LABELS[weekdayOf(day)] ?? "Mon";
  await form.getByRole("group", { name: "Weekdays" }).getByRole("button", { name: weekday, exact: true }).click();
  await search(app);
  await app.getByTestId("add-to-waitlist").click();
  const entryForm = app.getByTestId("waitlist-form");
  // The form starts from the search on screen.
  await expect(entryForm.getByLabel("Appointment type")).toHaveValue(fu.id);
  await expect(entryForm.getByLabel("From", { exact: true })).toHaveValue(today);
  await expect(entryForm.getByLabel("To", { exact: true })).toHaveValue(addDays(today, 6));
  await expect(entryForm.getByRole("group", { name: "Times of day" }).getByRole("button", { name: "Mornings" })).toHaveAttribute("aria-pressed", "true");
  await expect(entryForm.getByRole("group", { name: "Weekdays" }).getByRole("button", { name: weekday, exact: true })).toHaveAttribute("aria-pressed", "true");
  // A range past the limit is named at its field before anything is sent.
  await entryForm.getByLabel("To", { exact: true }).fill(addDays(today, 120));
  await entryForm.getByRole("button", { name: "Add to waitlist" }).click();
  await expect(entryForm).toContainText("The dates may span at most 92 days");
  await expect(entryForm.getByLabel("To", { exact: true })).toBeFocused();
  await entryForm.getByLabel("To", { exact: true }).fill(addDays(today, 6));
  await entryForm.getByLabel("Note").fill("Prefers a call after 4 pm");
  await saveScreenshot(page, "waitlist-add-form");
  await expectAccessible(page);
  await entryForm.getByRole("button", { name: "Add to waitlist" }).click();
  await expect(app.getByTestId("waitlist-added")).toContainText("is on the waitlist");
  const [entry] = (await waitlistOf(userId)).entries;
  if (!entry) throw new Error("the entry was not added");
  // The Waitlist view says who added it, to the one who did: "you", at a time today.
  await nav(app).getByRole("link", { name: "Waitlist" }).click();
  await expect(app.getByTestId("waitlist-entry")).toContainText(/Added by you at \d{1,2}:\d{2}\s[AP]M/);
  expect(entry.patientId.replace(/^pat_/, "").replaceAll("-", "")).toBe(patientId.replaceAll("-", ""));

  // A colleague on shift, on another view.
  const { tab, app: colleagueApp } = await colleagueTab(page, colleague.id);
  await nav(colleagueApp).getByRole("link", { name: "Availability" }).click();
  await expect(colleagueApp.getByTestId("waitlist-offers")).toHaveCount(0);

  // The other patient cancels in the EHR; the sync tells Tandem.
  await cancelInEhr(appointmentId);
  await syncOrganization();
  const offer = offerCard(colleagueApp, target.startsAt);
  await expect(offer).toHaveAttribute("data-status", "open");
  const name = entry.patientName ?? "A patient (name not readable)";
  await expect(offer.getByTestId("waitlist-offer-text")).toHaveText(new RegExp(` freed: 1 waitlisted patient fits: ${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(added today\\)$`));
  await expect(colleagueApp.getByTestId("waitlist-offer")).toHaveCount(1);
  // The front desk who added the patient is told too.
  await expect(offerCard(app, target.startsAt)).toHaveAttribute("data-status", "open");
  await saveScreenshot(tab, "waitlist-offer-colleague");
  await expectAccessible(tab);

  // The colleague holds it for the waitlisted patient.
  await offer.getByRole("button", { name: `Hold for ${name}` }).click();
  await expect(offer.getByTestId("waitlist-offer-hold-state")).toHaveAttribute("data-state", "held");
  const [held] = await holdsOf(ORG_A, colleague.id);
  expect(held).toBeDefined();
  // Every tab's alert says it is no longer there to hold.
  await expect(offerCard(app, target.startsAt).getByTestId("hold-for-patient")).toHaveCount(0);
  await expect(offerCard(app, target.startsAt)).not.toHaveAttribute("data-status", "open");

  // Booked in the EHR with that patient open; the sync tells Tandem, and the entry ends.
  await tab.locator("#host-patient").selectOption(patientId);
  const bar = colleagueApp.getByTestId("holds-bar");
  await bar.getByTestId("book-in-ehr").click();
  await expect(tab.locator("#host-booking-status")).toHaveAttribute("data-state", "booked");
  await syncOrganization();
  await nav(app).getByRole("link", { name: "Waitlist" }).click();
  await expect(app.getByTestId("waitlist-empty")).toBeVisible();
  await expect.poll(async () => (await waitlistOf(userId)).entries).toEqual([]);
  await tab.close();
});

test("at 400 px: a first sighting already cancelled alerts no one; a duplicated and reordered delivery alerts once per freed slot, above the list without covering it", async ({ page }) => {
  const fu = await appointmentType("FU");
  const zone = UPPER_WEST_SIDE.timezone;
  const today = await todayIn(zone);
  const { userId, patientId } = await frontDeskSession();
  const other = await otherPatientThan(patientId);
  const day = addDays(today, 2);
  const [historical, first, second] = await morningSlots(fu.id, day);
  if (!historical || !first || !second) throw new Error("fewer than three morning follow-up slots in two days");
  await addFollowUpToWaitlist({ userId, patientId }, fu.id, today);

  await page.setViewportSize({ width: 400, height: 860 });
  const app = await openSlotFinder(page);

  // Booked and cancelled before the service ever saw it: its first sighting says cancelled, with no previous status.
  await bookInEhrFor(historical, other, fu.id, "cancelled");
  const { results } = await syncOrganization();
  expect(results.flatMap((result) => result.events.map((event) => event.type))).toContain("appointment.cancelled");

  // Two appointments the service has seen, cancelled together; every delivery twice, in shuffled order.
  const ids = [await bookInEhrFor(first, other, fu.id), await bookInEhrFor(second, other, fu.id)];
  await syncOrganization();
  await sandbox("POST", "/webhooks", { url: `${appUrl()}/webhooks/clinic`, headerStyle: "standard", duplicate: true, shuffle: true });
  for (const id of ids) await cancelInEhr(id);
  await syncOrganization();

  await expect(offerCard(app, first.startsAt)).toHaveCount(1);
  await expect(offerCard(app, second.startsAt)).toHaveCount(1);
  await expect(app.getByTestId("waitlist-offer")).toHaveCount(2);
  await expect(offerCard(app, historical.startsAt)).toHaveCount(0);
  const { offers } = await waitlistOf(userId);
  // One offer per freed slot in the BFF's store too, however often and in whatever order the events came.
  expect(offers.map((offer) => Date.parse(offer.slot.startsAt)).sort()).toEqual([first.startsAt, second.startsAt].map((startsAt) => Date.parse(startsAt)).sort());

  // Above the list, in the page's flow: nothing of the list is covered.
  const alertBox = await app.getByTestId("waitlist-offers").boundingBox();
  const listBox = await app.getByTestId("slot-results").boundingBox();
  if (!alertBox || !listBox) throw new Error("the alert or the list is not on screen");
  expect(alertBox.y + alertBox.height).toBeLessThanOrEqual(listBox.y);
  await saveScreenshot(page, "waitlist-offers-400");
  await expectAccessible(page);

  // Dismissed, it goes; the other stays.
  await offerCard(app, first.startsAt).getByRole("button", { name: /^Dismiss/ }).click();
  await expect(offerCard(app, first.startsAt)).toHaveCount(0);
  await expect(offerCard(app, second.startsAt)).toHaveCount(1);
});

test("open offers survive a reload of the app (GET /api/waitlist lists them)", async ({ page }) => {
  const fu = await appointmentType("FU");
  const today = await todayIn(UPPER_WEST_SIDE.timezone);
  const { userId, patientId } = await frontDeskSession();
  const [slot] = await morningSlots(fu.id, addDays(today, 2));
  if (!slot) throw new Error("no morning follow-up slot in two days");
  await addFollowUpToWaitlist({ userId, patientId }, fu.id, today);
  const id = await bookInEhrFor(slot, await otherPatientThan(patientId), fu.id);
  await syncOrganization();
  const app = await openSlotFinder(page);
  await cancelInEhr(id);
  await syncOrganization();
  await expect(offerCard(app, slot.startsAt)).toHaveAttribute("data-status", "open");
  await page.locator("#host-reload").click();
  await expect(offerCard(app, slot.startsAt)).toHaveAttribute("data-status", "open");
});

test("an entry's details use the card's width at 400 px, with Edit and Remove below them; at 1280 px the buttons sit beside them", async ({ page }) => {
  const fu = await appointmentType("FU");
  const today = await todayIn(UPPER_WEST_SIDE.timezone);
  const { userId, patientId } = await frontDeskSession();
  const entryId = await addFollowUpToWaitlist({ userId, patientId }, fu.id, today, "Mornings only; call her mobile");
  const app = await openInHost(page, { org: ORG_A, user: userId, patient: "none", note: "none" });
  await nav(app).getByRole("link", { name: "Waitlist" }).click();
  const card = app.locator(`[data-testid="waitlist-entry"][data-entry-id="${entryId}"]`);
  const details = card.getByTestId("waitlist-best-match").locator("..");
  const box = async (locator: typeof card) => {
    const found = await locator.boundingBox();
    if (!found) throw new Error("not drawn");
    return found;
  };
  await expect(card.getByRole("button", { name: "Edit" })).toBeVisible();
  const detailsAt1280 = await box(details);
  expect((await box(card.getByRole("button", { name: "Edit" }))).y).toBeLessThan(detailsAt1280.y + detailsAt1280.height);

  await page.setViewportSize({ width: 400, height: 860 });
  await expect(async () => {
    const [cardBox, detailsBox, editBox] = [await box(card), await box(details), await box(card.getByRole("button", { name: "Edit" }))];
    // The card's padding aside, the details take its whole width; the buttons start below them.
    expect(detailsBox.width).toBeGreaterThan(cardBox.width - 40);
    expect(editBox.y).toBeGreaterThanOrEqual(detailsBox.y + detailsBox.height);
  }).toPass();
  await card.scrollIntoViewIfNeeded();
  await saveScreenshot(page, "waitlist-entry-400");
  await expectAccessible(page);
});

/** A front desk's follow-up entry, added through the BFF, open in its edit form on the Waitlist view with `note` typed. */
async function editingAnEntry(page: Page, note: string) {
  const fu = await appointmentType("FU");
  const today = await todayIn(UPPER_WEST_SIDE.timezone);
  const { userId, patientId } = await frontDeskSession();
  const entryId = await addFollowUpToWaitlist({ userId, patientId }, fu.id, today);
  const app = await openInHost(page, { org: ORG_A, user: userId, patient: "none", note: "none" });
  await nav(app).getByRole("link", { name: "Waitlist" }).click();
  const card = app.locator(`[data-testid="waitlist-entry"][data-entry-id="${entryId}"]`);
  await card.getByRole("button", { name: "Edit" }).click();
  await card.getByLabel("Note").fill(note);
  return { userId, entryId, app, card };
}

test("an entry a colleague removes while it is being edited keeps the form and what was typed, says so, and closes on Close (1280 and 400 px)", async ({ page }) => {
  const { userId, entryId, app, card } = await editingAnEntry(page, "Mornings only from January; call her mobile");
  const colleague = await colleagueOf(userId);

  // The colleague ends it while this form is open: the live event reads the list again here.
  await callAppWithPatient("DELETE", `/api/waitlist/${entryId}`, { userId: colleague.id });
  await expect(card.getByTestId("waitlist-entry-gone")).toContainText("is no longer on the waitlist");
  await expect(card.getByLabel("Note")).toHaveValue("Mornings only from January; call her mobile");
  await expect(card.getByRole("button", { name: "Save changes" })).toHaveCount(0);
  await expect(card.getByRole("heading", { name: /^What you typed for / })).toBeVisible();
  // Said above Close too: at 400 px the notice above has scrolled away while typing.
  await expect(card.getByTestId("waitlist-form-actions-note")).toHaveText("Nothing to save to: this entry is no longer on the waitlist.");
  await saveScreenshot(page, "waitlist-entry-gone-while-edited-1280");
  await expectAccessible(page);
  await page.setViewportSize({ width: 400, height: 860 });
  await expect(card.getByTestId("waitlist-entry-gone")).toBeVisible();
  await saveScreenshot(page, "waitlist-entry-gone-while-edited-400");

  await card.getByRole("button", { name: "Close" }).click();
  await expect(card).toHaveCount(0);
  await expect(app.getByTestId("waitlist-empty")).toBeVisible();
});

test("an entry left mid-edit for another view opens in its form again on coming back, with what was typed, and Save saves it", async ({ page }) => {
  const { userId, entryId, app, card } = await editingAnEntry(page, "Wheelchair access; mornings");

  await nav(app).getByRole("link", { name: "Availability" }).click();
  await expect(app.getByTestId("availability-view")).toBeVisible();
  await nav(app).getByRole("link", { name: "Waitlist" }).click();
  await expect(card.getByLabel("Note")).toHaveValue("Wheelchair access; mornings");
  await card.getByRole("button", { name: "Save changes" }).click();
  await expect(card.getByRole("button", { name: "Edit" })).toBeVisible();
  await expect(card).toContainText("Wheelchair access; mornings");
  expect((await preferencesOf(userId, entryId))?.note).toBe("Wheelchair access; mornings");
});

test("at 400 px, an entry a colleague changes while it is being edited says so just above Save, in view while typing", async ({ page }) => {
  await page.setViewportSize({ width: 400, height: 860 });
  const { userId, entryId, card } = await editingAnEntry(page, "Mornings only; call her mobile");
  const colleague = await colleagueOf(userId);
  const preferences = await preferencesOf(userId, entryId);
  if (!preferences) throw new Error("the entry was not listed");
  const note = card.getByLabel("Note");

  // The colleague changes its note while this form is open: the live event reads the list again here.
  await callAppWithPatient("PATCH", `/api/waitlist/${entryId}`, { userId: colleague.id }, { preferences: { ...preferences, note: "Any clinician is fine" } });
  await expect(card.getByTestId("waitlist-entry-changed")).toContainText("was changed while you edited it");
  await expect(note).toHaveValue("Mornings only; call her mobile");
  const besideSave = card.getByTestId("waitlist-form-actions-note");
  await expect(besideSave).toHaveText("Changed elsewhere while you edited: Save replaces that change; Cancel keeps it.");
  await note.focus();
  await expect(besideSave).toBeInViewport({ ratio: 1 });
  await expect(card.getByRole("button", { name: "Save changes" })).toHaveAccessibleDescription(/Changed elsewhere while you edited/);
  await saveScreenshot(page, "waitlist-entry-changed-while-edited-400");
  await expectAccessible(page);
});
