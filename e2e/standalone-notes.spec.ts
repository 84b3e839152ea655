import { type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { ORG_A, appUrl, callApp, expectAccessibleOn, resetSandbox, sandbox, sandboxNotes, sandboxUsers, saveScreenshot, upstream, type SandboxNote, type SandboxUser } from "./support/sandbox.ts";

// ADR 0015: signed in outside the EHR, nobody types a note id. A
// link `/note?noteId=` opens the note (through the sign-in when needed); the
// Note tab lists the notes the clinician opened, newest first, with patient,
// visit date and status, each a link that opens it again.

const MULTI_ORG_PHYSICIAN = /Jacob Brooks/;

interface ListedNote {
  note: SandboxNote;
  /** As the note names the patient: first, middle and last name. */
  patientName: string;
  /** The visit's day and time as the facility's clock reads them (en-US, as the browser is pinned). */
  visitDay: string;
  visitTime: string;
  statusText: string;
}

const STATUS_TEXT: Readonly<Record<string, string>> = { awaiting_sign: "Awaiting signature", in_progress: "In progress", signed: "Signed" };

/** Up to `count` of the physician's notes in org A, with their status as Tandem holds it (an earlier test in this worker may have signed some). */
async function notesOf(who: SandboxUser, count: number): Promise<ListedNote[]> {
  const picked: ListedNote[] = [];
  for (const note of await sandboxNotes(ORG_A)) {
    if (picked.length === count) break;
    if (note.status === "signed" || !note.assignedProviderIds.includes(who.id)) continue;
    const { note: asTandemSees } = (await callApp("GET", `/api/notes/${note.id}`, { organizationId: ORG_A, userId: who.id, noteId: note.id })) as { note: { status: string } };
    const read = await upstream<{ visitDate: string; facility: { timezone: string }; patient: { firstName: string; middleName?: string; lastName: string } }>(`/v1/notes/${note.id}`);
    const visitAt = Date.parse(read.visitDate.replace(" ", "T").replace("+00", "Z"));
    const timeZone = read.facility.timezone;
    picked.push({
      note,
      patientName: [read.patient.firstName, read.patient.middleName ?? "", read.patient.lastName].filter((part) => part !== "").join(" "),
      visitDay: new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone }).format(visitAt),
      visitTime: new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", timeZone }).format(visitAt),
      statusText: STATUS_TEXT[asTandemSees.status] ?? asTandemSees.status,
    });
  }
  if (picked.length < count) throw new Error(`${who.displayName} has fewer than ${count} notes in org A`);
  return picked;
}

/** The physician who is one person in org A and org B (Jacob Brooks), or another physician of org A only, with notes there. */
async function physician(which: "multi-org" | "org A only"): Promise<SandboxUser> {
  const users = await sandboxUsers(ORG_A);
  const notes = await sandboxNotes(ORG_A);
  const found = users.find(
    (user) =>
      user.roles.includes("Physician") &&
      !user.hidden &&
      MULTI_ORG_PHYSICIAN.test(user.displayName) === (which === "multi-org") &&
      notes.some((note) => note.status !== "signed" && note.assignedProviderIds.includes(user.id)),
  );
  if (!found) throw new Error(`no ${which} physician with notes in org A`);
  return found;
}

/** A link to a note followed before signing in: the sign-in (and for someone in two organizations, the choice of org A), then the note. */
async function openLinkSigningIn(page: Page, noteId: string, who: SandboxUser): Promise<void> {
  await page.goto(`${appUrl()}/note?noteId=${noteId}`);
  await page.getByRole("link", { name: "Sign in" }).click();
  await page.locator("#oauth-account").selectOption({ label: (await page.locator("#oauth-account option").filter({ hasText: who.displayName }).first().textContent()) ?? "" });
  await page.locator("#oauth-sign-in").click();
  await page.locator("#oauth-allow").click();
  if (MULTI_ORG_PHYSICIAN.test(who.displayName)) {
    await page.getByRole("radio", { name: /Riverside/ }).check();
    await page.getByRole("button", { name: "Continue" }).click();
  }
}

async function expectNoteOpen(page: Page, listed: ListedNote): Promise<void> {
  await expect(page.getByTestId("note-view")).toHaveAttribute("data-state", "ready", { timeout: 20_000 });
  await expect(page.getByTestId("note-patient-name")).toContainText(listed.patientName);
  expect(new URL(page.url()).searchParams.get("noteId")).toBe(listed.note.id);
}

test.beforeEach(async () => {
  await resetSandbox();
});

test("a physician outside the EHR opens notes by link, finds them listed on the Note tab newest first, and opens one again by clicking", async ({ page }) => {
  const who = await physician("multi-org");
  const [first, second] = (await notesOf(who, 2)) as [ListedNote, ListedNote];

  await openLinkSigningIn(page, first.note.id, who);
  await expectNoteOpen(page, first);
  await page.goto(`${appUrl()}/note?noteId=${second.note.id}`);
  await expectNoteOpen(page, second);

  await page.getByRole("navigation", { name: "Tandem" }).getByRole("link", { name: "Note" }).click();
  await expect(page.getByRole("heading", { name: "Your recent notes" })).toBeVisible();
  const rows = page.getByTestId("recent-note");
  await expect(rows.first()).toBeVisible({ timeout: 20_000 });
  for (const [index, listed] of [second, first].entries()) {
    const row = rows.nth(index);
    await expect(row).toContainText(listed.patientName);
    await expect(row).toContainText(listed.visitDay);
    await expect(row).toContainText(listed.visitTime);
    await expect(row).toContainText(listed.statusText);
    // Opened here; or edited already: the physician is one user inside and outside the EHR (ADR 0024),
    // and earlier tests in this worker may have saved the same note inside it.
    await expect(row).toContainText(/Opened|Edited by you/);
    // A real link: the keyboard, middle-click and "open in new tab" work.
    await expect(row.getByRole("link")).toHaveAttribute("href", `/note?noteId=${listed.note.id}`);
  }
  await expect(page.getByRole("textbox")).toHaveCount(0);
  await expectAccessibleOn(page);
  await saveScreenshot(page, "standalone-recent-notes-1280");
  await page.setViewportSize({ width: 400, height: 860 });
  await saveScreenshot(page, "standalone-recent-notes-400");
  await page.setViewportSize({ width: 1280, height: 860 });

  await rows.nth(1).getByRole("link").click();
  await expectNoteOpen(page, first);
  await page.getByRole("navigation", { name: "Tandem" }).getByRole("link", { name: "Note" }).click();
  await expect(rows.first()).toContainText(first.patientName);
  await expect(rows.nth(1)).toContainText(second.patientName);
});

test("outside the EHR, a link with something other than a note id says so and leads to the recent notes; nothing asks for an id", async ({ page }) => {
  // Someone who has opened nothing through Tandem, inside the EHR or outside it, in this worker's run
  // (one person is one user, ADR 0024: a note read with their host token would be theirs here too).
  const who = await physician("org A only");
  await openLinkSigningIn(page, "not-a-note", who);
  await expect(page.getByRole("heading", { name: "This link does not name a note" })).toBeVisible();
  await expect(page.getByRole("textbox")).toHaveCount(0);
  await saveScreenshot(page, "standalone-bad-note-link");
  await page.getByRole("link", { name: "Your recent notes" }).click();
  await expect(page.getByRole("heading", { name: "Your recent notes" })).toBeVisible();
  // A first visit: nothing opened yet, and the page says how notes get here.
  await expect(page.getByTestId("recent-notes-empty")).toBeVisible();
  await expect(page.getByRole("textbox")).toHaveCount(0);
  await saveScreenshot(page, "standalone-recent-notes-empty");
  const [first] = (await notesOf(who, 1)) as [ListedNote];
  // An id in capitals is the same note.
  await page.goto(`${appUrl()}/note?noteId=${first.note.id.toUpperCase()}`);
  await expect(page.getByTestId("note-view")).toHaveAttribute("data-state", "ready", { timeout: 20_000 });
  await expect(page.getByTestId("note-patient-name")).toContainText(first.patientName);

  // The EHR not answering fails the list plainly, with a way to try again.
  await sandbox("POST", "/faults", { method: "GET", path: "/v1/notes/{noteId}", code: "server_unresponsive" });
  await page.getByRole("navigation", { name: "Tandem" }).getByRole("link", { name: "Note" }).click();
  await expect(page.getByRole("alert")).toContainText("The EHR did not answer", { timeout: 20_000 });
  await saveScreenshot(page, "standalone-recent-notes-error");
  await sandbox("DELETE", "/faults");
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByTestId("recent-note").first()).toContainText(first.patientName);
});

test("signing out with text just typed asks nothing and loses nothing: signed in again, the note offers the text", async ({ page }) => {
  const who = await physician("multi-org");
  const [listed] = (await notesOf(who, 1)) as [ListedNote];
  // The BFF's store outlives the emulator's reset: start without an earlier test's draft.
  await callApp("DELETE", `/api/notes/${listed.note.id}/draft`, { organizationId: ORG_A, userId: who.id, noteId: listed.note.id });
  await openLinkSigningIn(page, listed.note.id, who);
  await expectNoteOpen(page, listed);
  const asked: string[] = [];
  page.on("dialog", (dialog) => {
    asked.push(dialog.type());
    void dialog.dismiss();
  });
  const hpi = page.getByRole("textbox", { name: "Additional HPI comments", exact: true });
  await hpi.press("End");
  // Signed out within the draft's wait (800 ms): the text goes to Tandem before the session ends.
  await hpi.pressSequentially(" Typed just before signing out.");
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Sign in to Tandem" })).toBeVisible();
  expect(asked).toEqual([]);

  await signInAgain(page, listed.note.id, who);
  await expectNoteOpen(page, listed);
  await expect(page.getByTestId("draft-restore-notice")).toContainText("Typed just before signing out.");
});

test("signing out with a task typed and not yet created asks first: Stay keeps it; Sign out and discard leaves nothing Tandem kept in the tab for the next user", async ({ page }) => {
  const who = await physician("multi-org");
  const [listed] = (await notesOf(who, 1)) as [ListedNote];
  await openLinkSigningIn(page, listed.note.id, who);
  await expectNoteOpen(page, listed);
  const asked: string[] = [];
  page.on("dialog", (dialog) => {
    asked.push(dialog.type());
    void dialog.dismiss();
  });
  const description = page.getByTestId("task-panel").getByLabel("Task description");
  await description.fill("Call the patient about the potassium result.");
  const signOut = page.getByRole("button", { name: "Sign out", exact: true });
  const question = page.getByRole("alertdialog", { name: "Sign out and discard what you typed?" });

  await signOut.click();
  await expect(question).toContainText("Typed and not yet sent: a task not yet created. Signing out removes it from this browser; stay signed in to finish it.");
  await expect(question.getByRole("button", { name: "Stay signed in" })).toBeFocused();
  await saveScreenshot(page, "standalone-sign-out-unsent-task");
  await page.keyboard.press("Escape");
  await expect(question).toBeHidden();
  await expect(description).toHaveValue("Call the patient about the potassium result.");

  await signOut.click();
  await question.getByRole("button", { name: "Sign out and discard" }).click();
  await expect(page.getByRole("heading", { name: "Sign in to Tandem" })).toBeVisible();
  expect(asked).toEqual([]);
  expect(await page.evaluate(() => Object.keys(window.sessionStorage).filter((key) => key.startsWith("tandem.")))).toEqual([]);

  await signInAgain(page, listed.note.id, who);
  await expectNoteOpen(page, listed);
  await expect(description).toHaveValue("");
});

/** Signs in again after a sign-out, landing on the note's link; the service may remember this browser's sign-in and the consent, and then goes straight to the choice. */
async function signInAgain(page: Page, noteId: string, who: SandboxUser): Promise<void> {
  await page.goto(`${appUrl()}/note?noteId=${noteId}`);
  await page.getByRole("link", { name: "Sign in" }).click();
  const account = page.locator("#oauth-account");
  const consent = page.locator("#oauth-allow");
  const chooser = page.getByRole("heading", { name: "Choose an organization" });
  await expect(account.or(consent).or(chooser)).toBeVisible();
  if (await account.isVisible()) {
    await account.selectOption({ label: (await page.locator("#oauth-account option").filter({ hasText: who.displayName }).first().textContent()) ?? "" });
    await page.locator("#oauth-sign-in").click();
    await expect(consent.or(chooser)).toBeVisible();
  }
  if (await consent.isVisible()) await consent.click();
  await page.getByRole("radio", { name: /Riverside/ }).check();
  await page.getByRole("button", { name: "Continue" }).click();
}
