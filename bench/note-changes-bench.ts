import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { chromium } from "@playwright/test";
import { startSandboxServers } from "../e2e/support/sandbox-servers.ts";
import { percentile, round } from "./measure.ts";
import { CHROMIUM_ARGS, NOTE_BENCH_BFF_ENV, ORG_ID, json, largestNote, upstreamHeaders } from "./sandbox-notes.ts";

// The figure "open a previously seen note to what-changed drawn" (ADR 0016), against
// the emulator with zero latency, on the largest unsigned seeded note: the
// physician has seen the note, another client of the service changes its
// sticky note, and the physician opens the note again through the host page.
// Measured in Chromium from the host page's load to the changed field drawn
// in "Changed since you last looked" (and, in the same runs, to the note
// drawn, so the panel's own cost shows); then the BFF's
// GET /api/notes/:id/changes alone (Node, over loopback). p50 and p95.

export async function runNoteChangesBench(runs = 20): Promise<Record<string, unknown>> {
  // Benchmarks run the browser on real time, so the sandbox starts at the real instant.
  const servers = await startSandboxServers(new Date().toISOString(), { bffEnv: NOTE_BENCH_BFF_ENV });
  const { emulatorUrl, appUrl } = servers;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    const { note, userId, bytes } = await largestNote(emulatorUrl);
    const hostUrl = `${emulatorUrl}/_sandbox/host?org=${ORG_ID}&user=${userId}&note=${note.id}&patient=${note.patientId}`;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const app = page.frameLocator("iframe#tandem-app");
    const viewRecorded = () => page.waitForResponse((response) => response.request().method() === "PUT" && response.url().endsWith(`/api/notes/${note.id}/view`) && response.ok(), { timeout: 60_000 });
    const editAsAnotherClient = (text: string) =>
      json(`${emulatorUrl}/v1/notes/${note.id}`, { method: "PATCH", headers: { ...upstreamHeaders, "content-type": "application/json" }, body: JSON.stringify({ stickyNoteDescription: text }) });

    // The first look: from here on, every opening has something new to show.
    const first = viewRecorded();
    await page.goto(hostUrl);
    await first;

    const toNote: number[] = [];
    const toChanges: number[] = [];
    for (let i = 0; i < runs + 1; i += 1) {
      const text = `Bench change ${i}: call the son with the result.`;
      await editAsAnotherClient(text);
      const recorded = viewRecorded();
      const start = performance.now();
      await page.goto(hostUrl);
      const noteDrawn = app
        .locator('[data-testid="note-view"][data-state="ready"]')
        .waitFor({ timeout: 60_000 })
        .then(() => performance.now() - start);
      await app.getByTestId("changed-field-stickyNoteDescription").getByText(text).waitFor({ timeout: 60_000 });
      const changesDrawn = performance.now() - start;
      const noteMs = await noteDrawn;
      // The next opening compares with this one.
      await recorded;
      if (i > 0) {
        toNote.push(noteMs);
        toChanges.push(changesDrawn);
      }
    }

    // The API runs record no view: each compares with the last one, across this change.
    await editAsAnotherClient("Bench change for the API runs.");
    const api: number[] = [];
    for (let i = 0; i < runs * 3 + 3; i += 1) {
      const { token } = await json<{ token: string }>(`${emulatorUrl}/_sandbox/host-token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ organizationId: ORG_ID, userId, noteId: note.id }),
      });
      const start = performance.now();
      const answer = await json<{ fields: unknown[] }>(`${appUrl}/api/notes/${note.id}/changes`, { headers: { authorization: `Bearer ${token}` } });
      if (i >= 3) api.push(performance.now() - start);
      if (answer.fields.length === 0) throw new Error("the bench's note shows no change: the comparison is not being measured");
    }

    for (const list of [toNote, toChanges, api]) list.sort((a, b) => a - b);
    return {
      bench: "note-what-changed",
      noteJsonBytes: bytes,
      runs,
      openToWhatChangedMedianMs: round(percentile(toChanges, 50), 0),
      openToWhatChangedP95Ms: round(percentile(toChanges, 95), 0),
      openToNoteSameRunsMedianMs: round(percentile(toNote, 50), 0),
      openToNoteSameRunsP95Ms: round(percentile(toNote, 95), 0),
      apiRuns: api.length,
      bffChangesMedianMs: round(percentile(api, 50), 1),
      bffChangesP95Ms: round(percentile(api, 95), 1),
      note: "a previously seen note reopened through the host page after another client changed its sticky note: host page load to the changed field drawn in 'Changed since you last looked' (and to the note drawn, same runs); GET /api/notes/:id/changes alone (note read, last view, audit trail, section digests) over loopback; emulator latency zero",
    };
  } finally {
    await browser.close();
    await servers.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runNoteChangesBench()));
}
