import type { FrameLocator } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { holdsOf } from "./support/holds.ts";
import { ORG_A, expectAccessible, sandbox, sandboxNotes, sandboxNow, saveScreenshot } from "./support/sandbox.ts";
import {
  UPPER_WEST_SIDE,
  addDays,
  appointmentType,
  bookInEhr,
  frontDeskSession,
  listedSlots,
  liveSlot,
  openSlotFinder,
  resetSandbox,
  search,
  setFilters,
  slotButton,
  todayIn,
} from "./support/slots.ts";

// What the holds bar says (issue 36 items 3, 4, 9, 10): every hold that ends
// is told and every notice no longer true goes; a hold kept for the patient
// open before names them; every alternative names its provider; at 400 px the
// held slots, and a hold the EHR did not confirm with them, take one line until
// asked.

test.beforeEach(async () => {
  await resetSandbox();
});

/** Holds the first `count` slots of a follow-up search a few days out; returns them and the one after. */
async function holdFollowUps(app: FrameLocator, count: number) {
  const fu = await appointmentType("FU");
  const today = await todayIn(UPPER_WEST_SIDE.timezone);
  await setFilters(app, { typeId: fu.id, startDate: addDays(today, 1), endDate: addDays(today, 8) });
  await search(app);
  const listed = await listedSlots(app);
  if (listed.length <= count) throw new Error(`fewer than ${count + 1} follow-up slots listed`);
  const bar = app.getByTestId("holds-bar");
  for (const [index, slot] of listed.slice(0, count).entries()) {
    await slotButton(app, slot).click();
    await expect(bar.locator('[data-testid="hold-panel"][data-state="held"]')).toHaveCount(index + 1);
  }
  return { held: listed.slice(0, count), next: listed[count], bar };
}

test("three holds that run out together are each told, and 'You already hold 3 slots' goes with them", async ({ page }) => {
  const { userId } = await frontDeskSession();
  const app = await openSlotFinder(page);
  const { next, bar } = await holdFollowUps(app, 3);
  if (!next) throw new Error("no fourth slot");
  await slotButton(app, next).click();
  const full = app.getByTestId("selection-panel");
  await expect(full).toHaveAttribute("data-state", "basketFull");
  await expect(full).toContainText("You already hold 3 slots");

  await page.clock.fastForward("10:01");
  const expired = bar.locator('[data-testid="hold-panel"][data-state="expired"]');
  await expect(expired).toContainText("3 holds have expired");
  await expect(expired.getByRole("listitem")).toHaveCount(3);
  await expect(bar.locator('[data-testid="hold-panel"][data-state="held"]')).toHaveCount(0);
  // No longer true: nothing is held, so the basket is not full.
  await expect(full).toHaveCount(0);
  await expect(app.getByText("You already hold 3 slots")).toHaveCount(0);
  await expect.poll(() => holdsOf(ORG_A, userId)).toEqual([]);
  await saveScreenshot(page, "holds-three-expired");
  await expectAccessible(page);

  await expired.getByRole("button", { name: "Dismiss" }).click();
  await expect(expired).toHaveCount(0);
});

test("a hold kept for the patient open before names that patient, in the bar and on the list's slot", async ({ page }) => {
  const { patientId } = await frontDeskSession();
  const app = await openSlotFinder(page);
  const banner = await app.getByTestId("patient-name").innerText();
  const name = banner.split(" ").slice(0, 2).join(" ");
  const { bar, held } = await holdFollowUps(app, 1);
  await expect(bar.getByTestId("held-for")).toHaveText(`for ${name}`);
  const [heldSlot] = held;
  if (!heldSlot) throw new Error("no slot held");
  const chip = slotButton(app, heldSlot);
  await expect(chip).toContainText("Held");
  await expect(chip).not.toContainText("Held for");

  const other = (await sandboxNotes(ORG_A)).map((note) => note.patientId).find((id) => id !== patientId);
  if (!other) throw new Error("no second patient");
  await page.locator("#host-patient").selectOption(other);
  await expect(bar).toContainText("The patient changed in the EHR");
  await expect(bar.getByTestId("held-for")).toHaveText(`for ${name} (the patient open before)`);
  await expect(bar).toContainText(`You hold a slot for ${name}, who was open before.`);
  await expect(bar).toContainText(`Held for ${name}, the patient who was open before`);
  // On the list too: a plain "Held" would read as held for the patient open now.
  await expect(chip).toContainText(`Held for ${name}`);
  await expect(chip).toHaveAccessibleName(new RegExp(`, held by you for ${name}$`));
  await saveScreenshot(page, "holds-patient-named");
});

test("a slot chosen for one patient is not held for another the EHR switched to while it was checked", async ({ page }) => {
  const { userId, patientId } = await frontDeskSession();
  const app = await openSlotFinder(page);
  const fu = await appointmentType("FU");
  const today = await todayIn(UPPER_WEST_SIDE.timezone);
  await setFilters(app, { typeId: fu.id, startDate: addDays(today, 1), endDate: addDays(today, 8) });
  await search(app);
  const [slot] = await listedSlots(app);
  if (!slot) throw new Error("no follow-up slot listed");
  const other = (await sandboxNotes(ORG_A)).map((note) => note.patientId).find((id) => id !== patientId);
  if (!other) throw new Error("no second patient");

  // The live check reads the service's slots: slowed, so the patient changes while it runs.
  await sandbox("POST", "/faults", { method: "GET", path: "/v2/schedule/slots", latencyMs: 1_500, count: 1 });
  await slotButton(app, slot).click();
  const panel = app.getByTestId("selection-panel");
  await expect(panel).toHaveAttribute("data-state", "checking");
  await page.locator("#host-patient").selectOption(other);
  await expect(panel).toHaveAttribute("data-state", "failed");
  await expect(panel).toContainText("The patient open in the EHR changed");
  await expect(panel).toContainText("Nothing is held.");
  await expect(panel).toContainText("Try again to hold this slot for the patient open now.");
  await sandbox("DELETE", "/faults");
  expect(await holdsOf(ORG_A, userId)).toEqual([]);
  await saveScreenshot(page, "holds-patient-changed-while-checking");

  // Asked again, for the patient open now.
  await panel.getByRole("button", { name: "Try again" }).click();
  const bar = app.getByTestId("holds-bar");
  await expect(bar.locator('[data-testid="hold-panel"][data-state="held"]')).toHaveCount(1);
  await expect.poll(async () => (await holdsOf(ORG_A, userId)).map((held) => held.patientId)).toEqual([other]);
});

test("every alternative to a gone slot names its provider, the gone slot's own included", async ({ page }) => {
  const fu = await appointmentType("FU");
  const app = await openSlotFinder(page);
  const listed = await listedSlots(app);
  // A slot whose provider has another time soon after: the nearest alternatives include that provider's own.
  const target = listed.find((slot) => listed.some((other) => other.providerId === slot.providerId && Date.parse(other.startsAt) > Date.parse(slot.startsAt) && Date.parse(other.startsAt) - Date.parse(slot.startsAt) <= 3_600_000));
  if (!target) throw new Error("no provider with two slots within the hour");
  const live = await liveSlot(target, { appointmentTypeId: fu.id, isNewPatient: false }, UPPER_WEST_SIDE.timezone);
  if (!live) throw new Error("the first listed slot is not free in the EHR");
  await bookInEhr(live, live.remainingCapacity, fu.id);
  await slotButton(app, target).click();
  const gone = app.getByTestId("slot-gone-notice");
  await expect(gone).toContainText("That time was just taken");
  const alternatives = gone.getByTestId("slot-alternative");
  await expect(alternatives.first()).toBeVisible();
  const texts = await alternatives.allInnerTexts();
  const providerIds = await alternatives.evaluateAll((buttons) => buttons.map((button) => button.getAttribute("data-provider-id")));
  expect(providerIds).toContain(target.providerId);
  for (const text of texts) expect(text).toMatch(/ · \S/);
  // The gone slot's own provider's times name them too (they were bare times before).
  const ownName = texts.filter((_, index) => providerIds[index] === target.providerId).map((text) => text.split(" · ").at(-1));
  expect(new Set(ownName).size).toBe(1);
  expect(ownName[0]?.length).toBeGreaterThan(2);
});

for (const width of [400, 1280]) {
  test(`at ${width} px three holds ${width === 400 ? "take one line until Show opens them" : "are shown"}, keyboard reachable`, async ({ page }) => {
    await page.setViewportSize({ width, height: 860 });
    const app = await openSlotFinder(page);
    const { bar } = await holdFollowUps(app, 3);
    await expect(bar).toContainText("You are holding 3 slots");
    const show = bar.getByRole("button", { name: /the held slots/ });
    const frame = page.locator("iframe#tandem-app");
    const frameHeight = (await frame.boundingBox())?.height ?? 0;
    const barHeight = async () => (await bar.boundingBox())?.height ?? 0;
    if (width === 400) {
      await expect(show).toHaveAccessibleName("Show the held slots");
      await expect(show).toHaveAttribute("aria-expanded", "false");
      expect(await barHeight()).toBeLessThan(frameHeight * 0.15);
      await saveScreenshot(page, "holds-bar-400-folded");
      await show.focus();
      await page.keyboard.press("Enter");
      await expect(show).toHaveAttribute("aria-expanded", "true");
      await expect(bar.locator('[data-testid="hold-panel"][data-state="held"]')).toHaveCount(3);
      await page.keyboard.press("Enter");
      await expect(show).toHaveAttribute("aria-expanded", "false");
    } else {
      await expect(show).toHaveAccessibleName("Hide the held slots");
      await expect(bar.locator('[data-testid="hold-panel"][data-state="held"]').nth(2)).toBeVisible();
    }
    // Show / Hide sits on the line it folds, not below it.
    const [line, button] = await Promise.all([bar.getByRole("heading", { name: /You are holding 3 slots/ }).boundingBox(), show.boundingBox()]);
    if (!line || !button) throw new Error("the holds line or its button is not laid out");
    expect(Math.abs(line.y + line.height / 2 - (button.y + button.height / 2))).toBeLessThanOrEqual(2);
    await expectAccessible(page);
  });
}

test("at 400 px a hold the EHR may have made is told in one alert, then folds into the one line with the held slots, and Show opens it with Let it go; at 1280 px both are shown", async ({ page }) => {
  await page.setViewportSize({ width: 400, height: 860 });
  // A user of their own: the hold the EHR may have made stays theirs for 11 minutes, with no id to release it by.
  const app = await openSlotFinder(page, { role: "Medical Assistant" });
  const { next, bar } = await holdFollowUps(app, 2);
  if (!next) throw new Error("no third slot");
  // A second tab of the same user, open on the slot finder.
  const otherPage = await page.context().newPage();
  await otherPage.clock.install({ time: await sandboxNow() });
  const otherBar = (await openSlotFinder(otherPage, { role: "Medical Assistant" })).getByTestId("holds-bar");
  await expect(otherBar).toContainText("You are holding 2 slots");
  // A 5xx after the request was sent: whether the EHR made the hold is unknown (issue 35 item 4).
  await sandbox("POST", "/faults", { method: "POST", path: "/v4/schedule/holds", status: 503, count: 5 });
  await slotButton(app, next).click();
  const failed = app.getByTestId("selection-panel");
  await expect(failed).toHaveAttribute("data-state", "failed", { timeout: 20_000 });
  await sandbox("DELETE", "/faults");
  // One box, not a box in a box (item 10): what may be held and what failed in one alert, Try again beside Dismiss.
  const alert = failed.getByRole("alert");
  await expect(alert).toContainText("The EHR did not answer");
  await expect(alert).toContainText("The EHR may have held");
  const [retryBox, dismissBox] = await Promise.all([alert.getByRole("button", { name: "Try again" }).boundingBox(), alert.getByRole("button", { name: "Dismiss" }).boundingBox()]);
  expect(dismissBox?.y).toBe(retryBox?.y);
  await saveScreenshot(page, "holds-failed-400");
  await failed.getByRole("button", { name: "Dismiss" }).click();
  await expect(failed).toHaveCount(0);
  // The other tab lists it as not confirmed too (before, only confirmed holds were announced).
  await expect(otherBar.getByTestId("maybe-held")).toHaveCount(1, { timeout: 2_000 });
  await expect(otherBar).toContainText("The EHR may be holding 1 slot for you that it did not confirm");
  await otherPage.close();

  const notConfirmed = bar.getByTestId("maybe-held");
  await expect(notConfirmed).toHaveCount(1);
  await expect(bar.getByRole("heading", { name: "You are holding 2 slots · 1 more not confirmed" })).toBeVisible();
  await expect(notConfirmed).toBeHidden();
  const show = bar.getByRole("button", { name: /the held slots/ });
  await expect(show).toHaveAccessibleName("Show the held slots");
  await expect(show).toHaveAttribute("aria-expanded", "false");
  const frameHeight = (await page.locator("iframe#tandem-app").boundingBox())?.height ?? 0;
  expect((await bar.boundingBox())?.height ?? frameHeight).toBeLessThan(frameHeight * 0.15);
  await saveScreenshot(page, "holds-bar-400-not-confirmed-folded");
  await expectAccessible(page);

  await show.focus();
  await page.keyboard.press("Enter");
  await expect(show).toHaveAttribute("aria-expanded", "true");
  await expect(notConfirmed).toBeVisible();
  await expect(notConfirmed.getByTestId("maybe-held-text")).toContainText("Not confirmed: the EHR may have held this slot for you");
  await expect(notConfirmed.getByRole("button", { name: "Let it go" })).toBeVisible();
  await expect(bar.locator('[data-testid="hold-panel"][data-state="held"]')).toHaveCount(2);
  await saveScreenshot(page, "holds-bar-400-not-confirmed-open");
  await expectAccessible(page);

  // At 1280 px (a new page: no choice made yet) the held slots and the one not confirmed are shown, as before.
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.reload();
  await expect(notConfirmed).toBeVisible({ timeout: 20_000 });
  await expect(bar.getByRole("heading", { name: /^You are holding 2 slots · booking one releases the others/ })).toBeVisible();
  await expect(bar.getByRole("heading", { name: "The EHR may be holding 1 slot for you that it did not confirm" })).toBeVisible();
  await expect(show).toHaveAccessibleName("Hide the held slots");
  await expect(notConfirmed.getByRole("button", { name: "Let it go" })).toBeVisible();
  await saveScreenshot(page, "holds-bar-1280-not-confirmed");
  await expectAccessible(page);
});
