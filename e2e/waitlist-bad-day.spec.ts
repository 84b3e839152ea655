import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FrameLocator } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { holdsOf } from "./support/holds.ts";
import { ORG_A, sandbox, saveScreenshot, userWithRole } from "./support/sandbox.ts";
import { startOwnServers, type OwnServers } from "./support/sandbox-servers.ts";
import { UPPER_WEST_SIDE, addDays, appointmentType, cancelInEhr, frontDeskSession, openSlotFinder, search, setFilters, syncOrganization, todayIn } from "./support/slots.ts";
import { addFollowUpToWaitlist, bookInEhrFor, callAppWithPatient, colleagueOf, endEveryWaitlistEntry, morningSlots, otherPatientThan, preferencesOf, waitlistOf } from "./support/waitlist.ts";

// The waitlist (issue 38) on a bad day, through the host page, on servers of
// its own so that Tandem's server can be stopped: the front desk's add is cut
// off by a crash of Tandem's server and pressed again once it is back (one
// entry, nothing typed lost); a reload mid-typing asks first; a cancellation syncs while the service answers
// the strong read 503, then 429 (the offer still comes, once); a hold from
// the offer answered 503 (the EHR may have made it) says so, keeps the offer
// from colleagues, and the same front desk's next try holds it.

const nav = (app: FrameLocator) => app.getByRole("navigation", { name: "Tandem" });
const offerCard = (app: FrameLocator, startsAt: string) => app.locator(`[data-testid="waitlist-offer"][data-starts-at="${startsAt}"]`);

test.describe("the waitlist on a bad day", () => {
  let servers: OwnServers | null = null;

  test.beforeAll(async ({ pinnedInstant }) => {
    servers = await startOwnServers(pinnedInstant, { bffEnv: { DATA_DIR: join(mkdtempSync(join(tmpdir(), "tandem-e2e-waitlist-")), "pglite") } });
  });

  test.beforeEach(async () => {
    await endEveryWaitlistEntry((await frontDeskSession()).userId);
  });

  test.afterAll(async () => {
    await servers?.release();
  });

  test("an add cut off by a crash of Tandem's server keeps what was typed, names Tandem's server, and pressed again once it is back adds the patient once", async ({ page }) => {
    const bff = servers;
    if (!bff) throw new Error("no servers");
    const fu = await appointmentType("FU");
    const today = await todayIn(UPPER_WEST_SIDE.timezone);
    const { userId, patientId } = await frontDeskSession();
    const app = await openSlotFinder(page);
    await setFilters(app, { typeId: fu.id, facilities: ["Upper West Side"], startDate: today, endDate: addDays(today, 6) });
    await search(app);
    await app.getByTestId("add-to-waitlist").click();
    const form = app.getByTestId("waitlist-form");
    await form.getByLabel("Note").fill("Prefers a call after 4 pm; works nights");

    await bff.stopBff("SIGKILL");
    try {
      await form.getByRole("button", { name: "Add to waitlist" }).click();
      await expect(form.getByRole("alert")).toContainText(/Tandem could not reach its server|Tandem's server/);
      await expect(form.getByLabel("Note")).toHaveValue("Prefers a call after 4 pm; works nights");
      await saveScreenshot(page, "waitlist-bad-day-add-down-1280");
      await page.setViewportSize({ width: 400, height: 860 });
      await saveScreenshot(page, "waitlist-bad-day-add-down-400");
      await page.setViewportSize({ width: 1280, height: 860 });
    } finally {
      await bff.restartBff();
    }

    // Once the app reaches its server again (its live stream reconnects), the notice no longer says it cannot.
    await expect(form.getByTestId("waitlist-save-failed")).toContainText("Tandem's server is answering again", { timeout: 20_000 });
    await expect(form.getByTestId("waitlist-save-failed")).not.toContainText("could not reach");
    await form.getByRole("button", { name: "Add to waitlist" }).click();
    await expect(app.getByTestId("waitlist-added")).toContainText("is on the waitlist");
    // Pressed again from a second tab's form (or after a lost answer): still one entry.
    const [entry] = (await waitlistOf(userId)).entries;
    if (!entry) throw new Error("the entry was not added");
    await callAppWithPatient("POST", "/api/waitlist", { userId, patientId }, { preferences: await preferencesOf(userId, entry.id) });
    expect((await waitlistOf(userId)).entries.map((waiting) => waiting.id)).toEqual([entry.id]);
    await nav(app).getByRole("link", { name: "Waitlist" }).click();
    await expect(app.getByTestId("waitlist-entry")).toHaveCount(1);
    await expect(app.getByTestId("waitlist-entry")).toContainText("Prefers a call after 4 pm; works nights");
  });

  test("a reload mid-typing asks first, and dismissed, everything typed is still there", async ({ page }) => {
    const app = await openSlotFinder(page);
    await app.getByTestId("add-to-waitlist").click();
    const form = app.getByTestId("waitlist-form");
    await form.getByLabel("Note").fill("Only Tuesdays; her daughter drives");
    const asked: string[] = [];
    page.on("dialog", (dialog) => {
      asked.push(dialog.type());
      void dialog.dismiss();
    });
    await page.locator("#host-reload").click();
    await expect.poll(() => asked).toEqual(["beforeunload"]);
    await expect(form.getByLabel("Note")).toHaveValue("Only Tuesdays; her daughter drives");
  });

  test("a cancellation synced while the service answers the strong read 503, then 429, is still offered once; a hold whose answer is lost says the EHR may have held it, keeps the offer from colleagues, and holds on the next try", async ({ page }) => {
    const fu = await appointmentType("FU");
    const today = await todayIn(UPPER_WEST_SIDE.timezone);
    const { userId, patientId } = await frontDeskSession();
    const colleague = await colleagueOf(userId);
    const [slot] = await morningSlots(fu.id, addDays(today, 3));
    if (!slot) throw new Error("no morning follow-up slot in three days");
    await addFollowUpToWaitlist({ userId, patientId }, fu.id, today);
    const appointmentId = await bookInEhrFor(slot, await otherPatientThan(patientId), fu.id);
    await syncOrganization();
    const app = await openSlotFinder(page);

    // The service fails the matcher's strong read twice, then rate-limits it once.
    await sandbox("POST", "/faults", { method: "GET", path: "/v2/schedule/slots", status: 503, count: 2 });
    await sandbox("POST", "/faults", { method: "GET", path: "/v2/schedule/slots", status: 429, count: 1 });
    await cancelInEhr(appointmentId);
    await syncOrganization();
    const offer = offerCard(app, slot.startsAt);
    await expect(offer).toHaveAttribute("data-status", "open", { timeout: 30_000 });
    await expect(app.getByTestId("waitlist-offer")).toHaveCount(1);
    await sandbox("DELETE", "/faults");

    // The hold from the offer: the service answers 503, so Tandem cannot know whether the EHR held it.
    await sandbox("POST", "/faults", { method: "POST", path: "/v4/schedule/holds", status: 503, count: 1 });
    await offer.getByTestId("hold-for-patient").first().click();
    const state = offer.getByTestId("waitlist-offer-hold-state");
    await expect(state).toHaveAttribute("data-state", "failed");
    await expect(state).toContainText("may have made it");
    await expect(app.getByTestId("holds-bar").getByTestId("maybe-held")).toHaveCount(1);
    await saveScreenshot(page, "waitlist-bad-day-hold-unknown-1280");
    await page.setViewportSize({ width: 400, height: 860 });
    await saveScreenshot(page, "waitlist-bad-day-hold-unknown-400");
    await page.setViewportSize({ width: 1280, height: 860 });
    // Not offered to a colleague meanwhile: the EHR may have held it for this patient.
    expect((await waitlistOf(colleague.id)).offers).toEqual([]);
    await expect(offer).not.toContainText("by a colleague");
    // The front desk tries that patient's hold again, and it holds.
    await offer.getByTestId("hold-for-patient-again").click();
    await expect(state).toHaveAttribute("data-state", "held");
    expect(await holdsOf(ORG_A, userId)).toHaveLength(1);
    await saveScreenshot(page, "waitlist-bad-day-held-1280");

    // A physician signs in at the same workstation: nothing of the waitlist is on screen, however long it takes.
    await page.locator("#host-user").selectOption((await userWithRole(ORG_A, "Physician")).id);
    await expect(nav(app).getByRole("link", { name: "Waitlist" })).toHaveCount(0);
    await expect(app.getByTestId("waitlist-offers")).toHaveCount(0);
    await saveScreenshot(page, "waitlist-bad-day-physician-1280");
    await expect(app.locator("body")).not.toContainText("waitlist");
  });
});
