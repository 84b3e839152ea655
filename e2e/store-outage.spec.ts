import { randomBytes } from "node:crypto";
import pg from "pg";
import { expect, test } from "./support/fixtures.ts";
import { noteScene, openNote } from "./support/notes.ts";
import { ORG_A, openInHost, saveScreenshot } from "./support/sandbox.ts";
import { frontDeskSession } from "./support/slots.ts";
import { startSandboxServers, type SandboxServers } from "./support/sandbox-servers.ts";

// Tandem's own store gone while a physician edits a note (issue 34 item 2),
// through the host page: the save fails as Tandem's server's failure, never
// as the EHR's, and the text stays. A store can only be taken away from
// outside on PostgreSQL, so this spec runs its own BFF on a database of its
// own (and is skipped without DATABASE_URL, as the store's tests are). A
// locked table is the milder day: Tandem's server answers within its lock
// timeout, and every failure it left on screen goes once the lock does.

const databaseUrl = process.env.DATABASE_URL;
const EXAM_TEXT = "Typed while Tandem's database was gone.";

test.describe("Tandem's store gone", () => {
  test.skip(!databaseUrl, "needs PostgreSQL (DATABASE_URL)");

  const database = `tandem_e2e_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  let servers: SandboxServers | null = null;
  let workerUrls: { emulator?: string; app?: string } = {};

  const urlOf = (name: string) => {
    const url = new URL(databaseUrl ?? "");
    url.pathname = `/${name}`;
    return url.toString();
  };

  test.beforeAll(async ({ pinnedInstant }) => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    servers = await startSandboxServers(pinnedInstant, { bffEnv: { DATABASE_URL: urlOf(database) } });
    // The helpers in support/ talk to these servers for this spec.
    workerUrls = { emulator: process.env.E2E_EMULATOR_URL, app: process.env.E2E_APP_URL };
    process.env.E2E_EMULATOR_URL = servers.emulatorUrl;
    process.env.E2E_APP_URL = servers.appUrl;
  });

  const restoreWorkerUrls = () => {
    process.env.E2E_EMULATOR_URL = workerUrls.emulator;
    process.env.E2E_APP_URL = workerUrls.app;
  };

  /** Runs `during` while another session holds `table` locked (an open transaction), and lets it go after. */
  const whileLocked = async <T>(table: string, during: () => Promise<T>): Promise<T> => {
    const locker = new pg.Client({ connectionString: urlOf(database) });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
      return await during();
    } finally {
      await locker.query("COMMIT");
      await locker.end();
    }
  };

  test.afterAll(async () => {
    restoreWorkerUrls();
    await servers?.stop();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });

  test("a note opened while Tandem's audit trail is locked says Tandem's server is having trouble; once the lock goes, the patient bar and the note read again by themselves", async ({ page }) => {
    await page.setViewportSize({ width: 400, height: 860 });
    const scene = await noteScene();
    // Every PHI read is audited before it is answered: with the trail locked, none is answered.
    const app = await whileLocked("audit_trail", async () => {
      const opened = await openInHost(page, { org: ORG_A, user: scene.physician.id, note: scene.note.id, patient: scene.note.patientId });
      await expect(opened.getByTestId("patient-banner")).toContainText("Patient details could not be loaded: Tandem's server is having trouble.", { timeout: 20_000 });
      await expect(opened.getByTestId("patient-banner").getByRole("button", { name: "Try again" })).toBeVisible();
      await expect(opened.getByRole("alert").filter({ hasText: "Tandem's server is having trouble" })).toBeVisible({ timeout: 20_000 });
      await saveScreenshot(page, "note-audit-locked-400");
      return opened;
    });
    // No click: each failure goes once the lock does (the patient bar used to stay, with no way to clear it).
    await expect(app.getByTestId("patient-name")).toBeVisible({ timeout: 20_000 });
    await expect(app.getByText(/Patient details could not be loaded/)).toHaveCount(0);
    // The error view and the pending one can be on screen together for a moment as the route loads again.
    await expect(app.locator('[data-testid="note-view"][data-state="ready"]')).toBeVisible({ timeout: 20_000 });
    await expect(app.getByTestId("note-view")).toHaveCount(1);
    await expect(app.getByText("Tandem's server is having trouble")).toHaveCount(0);
  });

  test("the slot finder opened while Tandem's holds are locked says they could not be read, and lists them by itself once the lock goes", async ({ page }) => {
    const { userId, patientId } = await frontDeskSession();
    const app = await whileLocked("slot_holds", async () => {
      const opened = await openInHost(page, { org: ORG_A, user: userId, patient: patientId, note: "none" });
      await opened.getByRole("navigation", { name: "Tandem" }).getByRole("link", { name: "Slots" }).click();
      await expect(opened.getByTestId("holds-bar").getByRole("alert")).toContainText("Your holds could not be read.", { timeout: 20_000 });
      return opened;
    });
    // No holds: the bar goes with its failure.
    await expect(app.getByText("Your holds could not be read.", { exact: false })).toHaveCount(0, { timeout: 20_000 });
    await expect(app.getByTestId("holds-bar")).toHaveCount(0);
  });

  test("a save while the database is gone says Tandem's server is having trouble, not that the EHR did not answer, and keeps the text", async ({ page }) => {
    const scene = await noteScene();
    const app = await openNote(page, scene);
    const status = app.getByTestId("save-status-bar").getByRole("status");
    await expect(status).toHaveText(/No unsaved changes$/);

    await admin.query(`DROP DATABASE ${database} WITH (FORCE)`);
    try {
      const field = app.getByRole("textbox", { name: "Other exam comments", exact: true });
      await field.fill(EXAM_TEXT);
      await app.getByTestId("save-status-bar").getByRole("button", { name: "Save", exact: true }).click();
      await expect(status).toHaveText(/Not saved: Tandem's server is having trouble$/);
      await expect(status).not.toContainText("EHR");
      await expect(field).toHaveValue(EXAM_TEXT);
      await saveScreenshot(page, "note-save-store-gone");
    } finally {
      // The page fixture's clean-up (releasing holds) goes to the worker's servers: this BFF has no store left.
      restoreWorkerUrls();
    }
  });
});
