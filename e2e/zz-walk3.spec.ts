import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { clearFaults, injectFault, noteScene, openNote } from "./support/notes.ts";
import { sandbox, upstream } from "./support/sandbox.ts";

const shot = (page: Page, name: string) => page.screenshot({ path: `.scratch/walk/${name}.png`, fullPage: false });

for (const width of [400, 1280]) {
  test(`walk clinician ${width}`, async ({ page }) => {
    test.setTimeout(180_000);
    page.on("dialog", (dialog) => void dialog.accept());
    await page.setViewportSize({ width, height: 860 });
    const scene = await noteScene();
    const app = await openNote(page, scene);
    await shot(page, `${width}-c1-note`);
    await sandbox("POST", "/faults", { method: "PATCH", path: "/v1/notes/{noteId}", status: 429, count: 5 });
    await app.getByRole("textbox", { name: "Additional HPI comments", exact: true }).fill("Walk text one.");
    await app.getByTestId("save-status-bar").getByRole("button", { name: "Save", exact: true }).click();
    await page.waitForTimeout(4000);
    await shot(page, `${width}-c2-save-429`);
    await clearFaults();
    await sandbox("POST", "/faults", { method: "PATCH", path: "/v1/notes/{noteId}", latencyMs: 4000, count: 1 });
    await app.getByTestId("save-status-bar").getByRole("button", { name: /Save|Retry/ }).first().click();
    await page.waitForTimeout(1500);
    await shot(page, `${width}-c3-save-slow`);
    await page.waitForTimeout(4000);
    await shot(page, `${width}-c4-save-slow-done`);
    await clearFaults();
    await sandbox("POST", "/faults", { method: "GET", path: "/v3/notes/{noteId}/images", status: 503, count: 20 });
    await page.reload();
    await page.waitForTimeout(6000);
    await shot(page, `${width}-c5-images-503`);
    const images = page.frameLocator("iframe#tandem-app").getByTestId("image-panel");
    await images.scrollIntoViewIfNeeded().catch(() => undefined);
    await shot(page, `${width}-c6-images-503-scrolled`);
    await clearFaults();
    void upstream;
  });
}
