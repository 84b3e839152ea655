import { type FrameLocator, type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { noteScene, openNote } from "./support/notes.ts";
import { ORG_A, appUrl, resetSandbox, sandboxUsers, saveScreenshot, type SandboxUser } from "./support/sandbox.ts";
import { frontDeskSession, listedSlots, openSlotFinder, slotButton } from "./support/slots.ts";

// One person is one user (issue 35 item 6, ADR 0024): the clinician who
// works inside the EHR and signs in outside it is the same user to Tandem.
// A note edited inside the EHR is in "Your recent notes" outside it; a hold
// made inside is held outside too, and the basket of three counts both.

const SAVED_AT = /Saved \d{1,2}:\d{2} [AP]M( [A-Z]{3,5})?$/;

test.beforeEach(async () => {
  await resetSandbox();
});

/** Signs in at Tandem's own address as the sandbox account of `who`, and picks org A when the account has two. */
async function signInOutside(page: Page, who: Pick<SandboxUser, "displayName">): Promise<void> {
  await page.goto(appUrl());
  await page.getByRole("link", { name: "Sign in" }).click();
  const option = page.locator("#oauth-account option").filter({ hasText: who.displayName }).first();
  await page.locator("#oauth-account").selectOption({ label: (await option.textContent()) ?? "" });
  await page.locator("#oauth-sign-in").click();
  await page.locator("#oauth-allow").click();
  const picker = page.getByRole("heading", { name: "Choose an organization" });
  const bar = page.getByTestId("standalone-bar");
  await expect(picker.or(bar)).toBeVisible({ timeout: 20_000 });
  if (await picker.isVisible()) {
    await page.getByRole("radio", { name: /Riverside/ }).check();
    await page.getByRole("button", { name: "Continue" }).click();
  }
  await expect(bar).toContainText("Signed in outside the EHR as");
}

test("a note edited inside the EHR is in 'Your recent notes' outside it, as edited", async ({ page }) => {
  const scene = await noteScene();
  const app = await openNote(page, scene);
  const text = "Follow-up plan agreed inside the EHR.";
  await app.getByRole("textbox", { name: "Sticky note", exact: true }).fill(text);
  await app.getByTestId("save-status-bar").getByRole("button", { name: "Save", exact: true }).click();
  await expect(app.getByTestId("save-status-bar").getByRole("status")).toHaveText(SAVED_AT);

  await signInOutside(page, scene.physician);
  await page.getByRole("navigation", { name: "Tandem" }).getByRole("link", { name: "Note" }).click();
  await expect(page.getByRole("heading", { name: "Your recent notes" })).toBeVisible();
  const row = page.getByTestId("recent-note").filter({ has: page.locator(`a[href="/note?noteId=${scene.note.id}"]`) });
  await expect(row).toBeVisible({ timeout: 20_000 });
  await expect(row).toContainText("Edited");
  await expect(page.getByTestId("recent-notes-empty")).toHaveCount(0);
  await saveScreenshot(page, "one-person-recent-notes");

  // The link opens the note with the text saved inside the EHR.
  await row.getByRole("link").click();
  await expect(page.getByTestId("note-view")).toHaveAttribute("data-state", "ready", { timeout: 20_000 });
  await expect(page.getByRole("textbox", { name: "Sticky note", exact: true })).toHaveValue(text);
});

async function holdFirstSlots(app: FrameLocator, count: number): Promise<void> {
  const listed = await listedSlots(app);
  if (listed.length < count) throw new Error(`fewer than ${count} slots listed`);
  const panels = app.getByTestId("holds-bar").getByTestId("hold-panel");
  for (const [index, slot] of listed.slice(0, count).entries()) {
    await slotButton(app, slot).click();
    await expect(panels).toHaveCount(index + 1);
  }
}

test("holds made inside the EHR are held outside it too, and one basket of three counts them all", async ({ page }) => {
  const { userId } = await frontDeskSession();
  const frontDesk = (await sandboxUsers(ORG_A)).find((user) => user.id === userId);
  if (!frontDesk) throw new Error("no front-desk user");
  const inEhr = await openSlotFinder(page);
  await holdFirstSlots(inEhr, 2);
  await expect(inEhr.getByTestId("holds-bar")).toContainText("You are holding 2 slots");

  await signInOutside(page, frontDesk);
  const bar = page.getByTestId("holds-bar");
  await expect(bar).toContainText("You are holding 2 slots", { timeout: 20_000 });
  await expect(bar.getByTestId("hold-panel")).toHaveCount(2);
  await saveScreenshot(page, "one-person-holds");

  // One more outside fills the basket; a fourth is refused: the two held inside the EHR count.
  await page.getByRole("navigation", { name: "Tandem" }).getByRole("link", { name: "Slots" }).click();
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const notHeld = page.locator('[data-testid="slot"]:not([aria-current="true"])');
  await expect(notHeld.nth(1)).toBeVisible({ timeout: 20_000 });
  await notHeld.first().click();
  await expect(bar.getByTestId("hold-panel")).toHaveCount(3, { timeout: 20_000 });
  await expect(bar).toContainText("You are holding 3 slots");
  await notHeld.first().click();
  await expect(page.getByTestId("selection-panel")).toHaveAttribute("data-state", "basketFull");
  await expect(page.getByTestId("selection-panel")).toContainText("You already hold 3 slots");
});
