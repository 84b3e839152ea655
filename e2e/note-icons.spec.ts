import type { FrameLocator } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { injectFault, noteScene, openNote, returnToTab, signInEhr } from "./support/notes.ts";
import { ORG_A, expectAccessible, sandbox, saveScreenshot } from "./support/sandbox.ts";

// ADR 0008 "Icons": the read-only lock once showed as an empty box in Chromium
// on Debian (no emoji font). Icons are inline SVG; no text in the note view
// is a symbol that a machine's fonts may lack.

/** Arrows, technical symbols, shapes, dingbats (✓ ✎ ⚠), emoji, and bullets, crosses and angle quotes used as icons. */
const GLYPH_ICON = /[\u2190-\u21FF\u2300-\u23FF\u2500-\u27BF\u27F0-\u27FF\u2900-\u297F\u2B00-\u2BFF\u{1F000}-\u{1FFFF}\u2022\u00D7\u2139\u2039\u203A]|\uFE0F/gu;

const statusOf = (app: FrameLocator) => app.getByTestId("save-status-bar").getByRole("status");

async function glyphsIn(app: FrameLocator): Promise<string[]> {
  const text = await app.locator("body").evaluate((body) => body.textContent);
  return text?.match(GLYPH_ICON) ?? [];
}

test("the status icons of the note are drawn, not font glyphs: unsaved, failed, read-only", async ({ page }) => {
  const scene = await noteScene();
  const app = await openNote(page, scene);
  await expect(app.getByRole("region", { name: "Ready to sign" }).getByRole("status").locator('svg[data-icon="alert"]')).toBeVisible();

  await injectFault("PATCH", "/v1/notes/{noteId}", { code: "server_unresponsive", count: 5 });
  await app.getByRole("textbox", { name: "Sticky note", exact: true }).fill("Call the lab about the biopsy result.");
  await expect(statusOf(app).locator('svg[data-icon="dot"]')).toBeVisible();
  await app.getByTestId("save-status-bar").getByRole("button", { name: "Save", exact: true }).click();
  // A 5xx after the PATCH was sent: the EHR may have saved it (issue 35 item 4), shown as failed until the next read settles it.
  await expect(statusOf(app)).toHaveText(/Not confirmed/);
  await expect(statusOf(app).locator('svg[data-icon="cross"]')).toBeVisible();
  expect(await glyphsIn(app)).toEqual([]);

  await signInEhr(scene.note.id);
  await sandbox("POST", "/sync", { organizationId: ORG_A });
  await returnToTab(page);
  await expect(statusOf(app)).toContainText("Read-only");
  const lock = statusOf(app).locator('svg[data-icon="lock"]');
  await expect(lock).toBeVisible();
  expect((await lock.boundingBox())?.width).toBeGreaterThan(8);
  expect(await glyphsIn(app)).toEqual([]);
  await saveScreenshot(page, "note-icons-read-only-1280");
  await expectAccessible(page);
});

test("at 400 px the read-only lock and the section list's disclosure are drawn", async ({ page }) => {
  const scene = await noteScene();
  await signInEhr(scene.note.id);
  await sandbox("POST", "/sync", { organizationId: ORG_A });
  await page.setViewportSize({ width: 400, height: 860 });
  const app = await openNote(page, scene);
  await expect(statusOf(app)).toContainText("Read-only");
  await expect(statusOf(app).locator('svg[data-icon="lock"]')).toBeVisible();
  await expect(app.getByTestId("section-index").getByRole("button").locator('svg[data-icon="chevron-right"]')).toBeVisible();
  expect(await glyphsIn(app)).toEqual([]);
  await saveScreenshot(page, "note-icons-read-only-400");
});
