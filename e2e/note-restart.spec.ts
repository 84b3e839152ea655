import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FrameLocator, type Page } from "@playwright/test";
import pg from "pg";
import { expect, test } from "./support/fixtures.ts";
import { FRAME_STORAGE_GRANTED } from "./support/frame-storage.ts";
import { noteScene, openNote, readNote, returnToTab, typeThenReload, type NoteScene } from "./support/notes.ts";
import { ORG_A, callApp, saveScreenshot } from "./support/sandbox.ts";
import { startOwnServers, type OwnServers } from "./support/sandbox-servers.ts";

// Typed note text across a restart of Tandem's server and a reload (issue 35
// items 1 and 2), through the host page. The physician types a sentence and
// waits until the draft store has it, types a second, the BFF is stopped
// (SIGTERM: a deploy's drain; SIGKILL: a crash), a third is typed while it is
// down and Save pressed; the editor stays, the words name Tandem's server,
// and once the BFF is back (same port, same store) all three sentences reach
// the draft store and then the EHR by themselves. On the embedded store
// (PGlite, the same DATA_DIR) and on PostgreSQL (skipped without
// DATABASE_URL). These specs run their own servers, so they can stop them.

// The tab's copy needs the frame's storage (support/frame-storage.ts), so
// these specs run with it granted; where it is denied, the text typed is still
// kept on screen across a restart and sent once Tandem's server is back, but a
// reload before the BFF has it loses it (docs/fault-matrix.md).
test.use(FRAME_STORAGE_GRANTED);

const SENTENCE_1 = " Pain began after lifting a box on Monday.";
const SENTENCE_2 = " No prior back injuries.";
const SENTENCE_3 = " Worse when sitting.";
const HPI = "Additional HPI comments";

const databaseUrl = process.env.DATABASE_URL;
const statusOf = (app: FrameLocator) => app.getByTestId("save-status-bar").getByRole("status");
const hpiField = (app: FrameLocator) => app.getByRole("textbox", { name: HPI, exact: true });

/** The BFF's stored draft of the note for the physician, read as the app reads it. */
async function storedDraftText(scene: NoteScene): Promise<string | null> {
  const { draft } = (await callApp("GET", `/api/notes/${scene.note.id}/draft`, { organizationId: ORG_A, userId: scene.physician.id, noteId: scene.note.id })) as {
    draft: { fields: { additionalHpiComments?: string } } | null;
  };
  return draft?.fields.additionalHpiComments ?? null;
}

/** What this tab keeps of the note's draft: sessionStorage, and (never) localStorage. */
async function tabStorage(page: Page, noteId: string): Promise<{ session: string | null; local: string[] }> {
  const frame = page.frames().find((candidate) => candidate.url().startsWith(process.env.E2E_APP_URL ?? "-"));
  if (!frame) throw new Error("app frame not found");
  // The tab's copy is kept under the organization and user who typed it (session-draft.ts): found by its note.
  return frame.evaluate((id) => {
    const key = Object.keys(window.sessionStorage).find((candidate) => candidate.startsWith("tandem.note-draft.") && candidate.endsWith(`.${id}`));
    return { session: key === undefined ? null : window.sessionStorage.getItem(key), local: Object.keys(window.localStorage) };
  }, noteId);
}

/** Leaving with unsaved text asks first; the tests that reload on purpose say yes. */
function acceptLeaving(page: Page): void {
  page.on("dialog", (dialog) => void dialog.accept());
}

async function screenshotsAtBothWidths(page: Page, name: string): Promise<void> {
  await saveScreenshot(page, `${name}-1280`);
  await page.setViewportSize({ width: 400, height: 860 });
  await saveScreenshot(page, `${name}-400`);
  await page.setViewportSize({ width: 1280, height: 860 });
}

interface Engine {
  name: string;
  /** PostgreSQL: a database of this spec's own; null for the embedded store. */
  postgres: boolean;
}

const ENGINES: Engine[] = [
  { name: "the embedded store (PGlite, the same DATA_DIR)", postgres: false },
  { name: "PostgreSQL", postgres: true },
];

for (const engine of ENGINES) {
  test.describe(`Tandem's server restarted while a physician types, on ${engine.name}`, () => {
    test.skip(engine.postgres && !databaseUrl, "needs PostgreSQL (DATABASE_URL)");

    const database = `tandem_e2e_${randomBytes(4).toString("hex")}`;
    let admin: pg.Client | null = null;
    let servers: OwnServers | null = null;

    const urlOf = (name: string) => {
      const url = new URL(databaseUrl ?? "");
      url.pathname = `/${name}`;
      return url.toString();
    };

    test.beforeAll(async ({ pinnedInstant }) => {
      let bffEnv: NodeJS.ProcessEnv;
      if (engine.postgres) {
        admin = new pg.Client({ connectionString: databaseUrl });
        await admin.connect();
        await admin.query(`CREATE DATABASE ${database}`);
        bffEnv = { DATABASE_URL: urlOf(database) };
      } else {
        bffEnv = { DATA_DIR: join(mkdtempSync(join(tmpdir(), "tandem-e2e-restart-")), "pglite") };
      }
      servers = await startOwnServers(pinnedInstant, { bffEnv });
    });

    test.afterAll(async () => {
      await servers?.release();
      if (admin) {
        await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
        await admin.end();
      }
    });

    for (const signal of ["SIGTERM", "SIGKILL"] as const) {
      test(`${signal}: the editor stays, the words name Tandem's server, and all three sentences reach the draft store and the EHR once it is back`, async ({ page }) => {
        const bff = servers;
        if (!bff) throw new Error("no servers");
        const scene = await noteScene();
        acceptLeaving(page);
        const app = await openNote(page, scene);
        const field = hpiField(app);
        const start = await field.inputValue();
        const full = `${start}${SENTENCE_1}${SENTENCE_2}${SENTENCE_3}`;

        // Sentence 1 reaches the draft store.
        await field.fill(`${start}${SENTENCE_1}`);
        await expect.poll(() => storedDraftText(scene), { timeout: 10_000 }).toBe(`${start}${SENTENCE_1}`);

        // Sentence 2, then the BFF stops before its draft is sent.
        const draftWithAllThree = page.waitForResponse(
          (response) =>
            response.url().endsWith(`/api/notes/${scene.note.id}/draft`) && response.request().method() === "PUT" && response.ok() && (response.request().postData() ?? "").includes(SENTENCE_3.trim()),
          { timeout: 60_000 },
        );
        await field.press("End");
        await field.pressSequentially(SENTENCE_2);
        await bff.stopBff(signal);
        const notice = app.getByTestId("note-reread-notice");
        try {
          // Sentence 3 while it is down; Save asked for; the note re-read (as on coming back to the tab) fails.
          await field.press("End");
          await field.pressSequentially(SENTENCE_3);
          await app.getByTestId("save-status-bar").getByRole("button", { name: "Save", exact: true }).click();
          await returnToTab(page);

          await expect(notice).toContainText(/Tandem's server is (restarting|not answering)/);
          await expect(notice).toContainText("your text is kept in this tab; it will be saved when Tandem is back");
          await expect(statusOf(app)).toHaveText(/Tandem's server/);
          await expect(statusOf(app)).not.toContainText("EHR");
          await expect(app.getByTestId("note-view")).toHaveAttribute("data-state", "ready");
          await expect(field).toHaveValue(full);
          // Kept in this tab from the keystroke, never in localStorage.
          const kept = await tabStorage(page, scene.note.id);
          expect(kept.session).toContain(SENTENCE_3);
          expect(kept.local.filter((key) => key.startsWith("tandem.note-draft"))).toEqual([]);
          await screenshotsAtBothWidths(page, `note-restart-${signal.toLowerCase()}-down`);
        } finally {
          // Back on the same port and store (and never left stopped: the page fixture's clean-up talks to it).
          await bff.restartBff();
        }

        // The draft goes to the draft store first, then the save to the EHR, by themselves.
        const stored = (await (await draftWithAllThree).json()) as { draft: { fields: { additionalHpiComments?: string } } };
        expect(stored.draft.fields.additionalHpiComments).toBe(full);
        await expect(statusOf(app)).toHaveText(/Saved \d{1,2}:\d{2} [AP]M/, { timeout: 30_000 });
        await expect(notice).toHaveCount(0);
        expect((await readNote(scene.note.id)).soapNote.hpi.additionalHpiComments).toBe(full);
        await expect(field).toHaveValue(full);
        // Nothing is left behind: the saved draft is gone from the store and from the tab.
        await expect.poll(() => storedDraftText(scene)).toBeNull();
        await expect.poll(async () => (await tabStorage(page, scene.note.id)).session).toBeNull();
        await screenshotsAtBothWidths(page, `note-restart-${signal.toLowerCase()}-back`);
      });
    }
  });
}

test.describe("a reload just after typing", () => {
  test("loses nothing, and the header agrees with the notice of unsaved text", async ({ page }) => {
    const scene = await noteScene();
    acceptLeaving(page);
    let app = await openNote(page, scene);
    const field = hpiField(app);
    const start = await field.inputValue();
    await field.fill(`${start}${SENTENCE_1}`);
    await expect.poll(() => storedDraftText(scene), { timeout: 10_000 }).toBe(`${start}${SENTENCE_1}`);

    app = await typeThenReload(page, field, SENTENCE_2);

    const offer = app.getByTestId("draft-restore-notice");
    await expect(offer).toContainText(/You have unsaved text from/);
    await expect(offer).toContainText(SENTENCE_2.trim());
    await expect(statusOf(app)).not.toHaveText(/No unsaved changes/);
    await expect(statusOf(app)).toHaveText(/Unsaved text from earlier: restore or discard it/);
    await screenshotsAtBothWidths(page, "note-reload-150ms");

    await offer.getByRole("button", { name: "Restore" }).click();
    await expect(hpiField(app)).toHaveValue(`${start}${SENTENCE_1}${SENTENCE_2}`);
    await expect(statusOf(app)).toHaveText(/Unsaved changes|Saving…|Saved/);
  });
});
