import { pathToFileURL } from "node:url";
import { chromium, type FrameLocator } from "@playwright/test";
import { startSandboxServers } from "../e2e/support/sandbox-servers.ts";
import { percentile, round } from "./measure.ts";
import { CHROMIUM_ARGS, NOTE_BENCH_BFF_ENV, ORG_ID, json, largestNote } from "./sandbox-notes.ts";

// The note view's figures, against the emulator with zero latency:
// - the largest seeded note (by the size of its JSON): time to render in
//   Chromium through the host page, median of 10: from the host page's load
//   to the note drawn with its sections; and from a click on "Note" (coming
//   from the slot finder) to the note drawn;
// - the save round trip: the BFF's PATCH /api/notes/:id alone (Node, fresh
//   token per write, baseline check included), and in Chromium from Save to
//   "Saved" shown; medians.

const noteReady = (app: FrameLocator) => app.locator('[data-testid="note-view"][data-state="ready"]').waitFor({ timeout: 60_000 });

export async function runNoteBench(runs = 10): Promise<Record<string, unknown>[]> {
  // Benchmarks run the browser on real time, so the sandbox starts at the real instant.
  const servers = await startSandboxServers(new Date().toISOString(), { bffEnv: NOTE_BENCH_BFF_ENV });
  const emulatorUrl = servers.emulatorUrl;
  const appUrl = servers.appUrl;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    const { note, userId, bytes } = await largestNote(emulatorUrl);
    const hostUrl = `${emulatorUrl}/_sandbox/host?org=${ORG_ID}&user=${userId}&note=${note.id}&patient=${note.patientId}`;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("dialog", (dialog) => void dialog.accept());

    const cold: number[] = [];
    for (let i = 0; i < runs + 1; i += 1) {
      const start = performance.now();
      await page.goto(hostUrl);
      await noteReady(page.frameLocator("iframe#tandem-app"));
      if (i > 0) cold.push(performance.now() - start);
    }
    const app = page.frameLocator("iframe#tandem-app");
    const sections = await app.locator('section[id^="section-"]').count();

    const inApp: number[] = [];
    for (let i = 0; i < runs + 1; i += 1) {
      await app.getByRole("link", { name: "Slots" }).click();
      await app.getByRole("link", { name: "Slots" }).and(app.locator('[aria-current="page"]')).waitFor();
      const start = performance.now();
      await app.getByRole("link", { name: "Note" }).click();
      await noteReady(app);
      if (i > 0) inApp.push(performance.now() - start);
    }

    const field = app.getByRole("textbox", { name: "Sticky note", exact: true });
    const status = app.getByTestId("save-status-bar");
    const uiSave: number[] = [];
    for (let i = 0; i < runs + 1; i += 1) {
      await field.fill(`Bench save ${i}`);
      await status.and(app.locator('[data-status="unsaved"]')).waitFor();
      const start = performance.now();
      await status.getByRole("button", { name: "Save", exact: true }).click();
      await status.and(app.locator('[data-status="saved"]')).waitFor();
      if (i > 0) uiSave.push(performance.now() - start);
    }

    const apiSave: number[] = [];
    for (let i = 0; i < runs * 3 + 3; i += 1) {
      const { token } = await json<{ token: string }>(`${emulatorUrl}/_sandbox/host-token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ organizationId: ORG_ID, userId, noteId: note.id }),
      });
      const current = await json<{ note: { soapNote: { exam: { otherExamComments: string } } } }>(`${appUrl}/api/notes/${note.id}`, { headers: { authorization: `Bearer ${token}` } });
      const { token: writeToken } = await json<{ token: string }>(`${emulatorUrl}/_sandbox/host-token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ organizationId: ORG_ID, userId, noteId: note.id }),
      });
      const start = performance.now();
      await json(`${appUrl}/api/notes/${note.id}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${writeToken}`, "content-type": "application/json" },
        body: JSON.stringify({ otherExamComments: `API bench ${i}`, baseline: { otherExamComments: current.note.soapNote.exam.otherExamComments } }),
      });
      if (i >= 3) apiSave.push(performance.now() - start);
    }

    for (const list of [cold, inApp, uiSave, apiSave]) list.sort((a, b) => a - b);
    return [
      {
        bench: "note-render",
        noteJsonBytes: bytes,
        sectionsRendered: sections,
        runs,
        hostLoadToNoteMedianMs: round(percentile(cold, 50), 0),
        hostLoadToNoteP95Ms: round(percentile(cold, 95), 0),
        clickToNoteMedianMs: round(percentile(inApp, 50), 0),
        clickToNoteP95Ms: round(percentile(inApp, 95), 0),
        note: "the largest unsigned seeded note in Chromium through the host page; emulator latency zero",
      },
      {
        bench: "note-save",
        runs: apiSave.length,
        bffPatchMedianMs: round(percentile(apiSave, 50), 1),
        bffPatchP95Ms: round(percentile(apiSave, 95), 1),
        uiRuns: runs,
        saveClickToSavedMedianMs: round(percentile(uiSave, 50), 0),
        saveClickToSavedP95Ms: round(percentile(uiSave, 95), 0),
        note: "PATCH /api/notes/:id with a baseline (re-read + PATCH upstream) over loopback; in Chromium, Save to 'Saved' shown (a fresh host token from the host page included)",
      },
    ];
  } finally {
    await browser.close();
    await servers.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await runNoteBench()) console.log(JSON.stringify(line));
}
