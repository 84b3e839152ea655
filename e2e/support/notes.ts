import { expect, type FrameLocator, type Locator, type Page } from "@playwright/test";
import { ORG_A, callApp, openInHost, resetSandbox, sandbox, sandboxNotes, sandboxUsers, upstream, type SandboxNote, type SandboxUser } from "./sandbox.ts";

// What the note specs share: a fresh unsigned note with images and a
// physician assigned to it, the note view opened through the host page, and
// the EHR-side actions (faults, signing, another client's edit, reads).

export interface NoteScene {
  note: SandboxNote;
  physician: SandboxUser;
}

export interface UpstreamNote {
  id: string;
  version: number;
  status: string;
  aiStatus: string;
  aiIssueCount: number;
  soapNote: { hpi: { additionalHpiComments: string }; exam: { otherExamComments: string }; impressionsPlansComments: string; stickyNote: { description: string } };
}

const heldAsSigned = async (noteId: string, physician: SandboxUser): Promise<boolean> => {
  const { note } = (await callApp("GET", `/api/notes/${noteId}`, { organizationId: ORG_A, userId: physician.id, noteId })) as { note: { status: string } };
  return note.status === "signed";
};

/**
 * Resets the emulator and picks a note with images whose assigned providers
 * include a physician: by default one awaiting signature; `status` and
 * `aiStatus` choose another kind. The BFF's store outlives the reset and
 * holds a note an earlier test signed as signed (signing is one-way in a real
 * EHR), so such a note is passed over when an unsigned one is wanted.
 */
export async function noteScene(wanted: { status?: string; aiStatus?: string } = {}): Promise<NoteScene> {
  await resetSandbox();
  const users = await sandboxUsers(ORG_A);
  const physicians = users.filter((user) => user.roles.includes("Physician") && !user.hidden);
  for (const note of await sandboxNotes(ORG_A)) {
    if (note.status !== (wanted.status ?? "awaiting_sign")) continue;
    const physician = physicians.find((candidate) => note.assignedProviderIds.includes(candidate.id));
    if (!physician) continue;
    if (wanted.aiStatus !== undefined && (await readNote(note.id)).aiStatus !== wanted.aiStatus) continue;
    const { images } = await upstream<{ images: unknown[] }>(`/v3/notes/${note.id}/images`);
    if (images.length === 0) continue;
    if (note.status !== "signed" && (await heldAsSigned(note.id, physician))) continue;
    // The BFF's store outlives an emulator reset: start without an earlier test's draft.
    await callApp("DELETE", `/api/notes/${note.id}/draft`, { organizationId: ORG_A, userId: physician.id, noteId: note.id });
    return { note, physician };
  }
  throw new Error(`the seed has no ${wanted.status ?? "awaiting_sign"} note${wanted.aiStatus ? ` with AI review ${wanted.aiStatus}` : ""} with images assigned to a physician`);
}

/** Opens the host page as the physician with the note in context; the app lands on the note. */
export async function openNote(page: Page, scene: NoteScene, options: { width?: string } = {}): Promise<FrameLocator> {
  const app = await openInHost(page, { org: ORG_A, user: scene.physician.id, note: scene.note.id, patient: scene.note.patientId, ...options });
  await expect(app.getByTestId("note-view")).toHaveAttribute("data-state", "ready", { timeout: 20_000 });
  return app;
}

export const readNote = (noteId: string) => upstream<UpstreamNote>(`/v1/notes/${noteId}`);

export async function injectFault(method: string, path: string, fault: { code?: string; status?: number; count?: number; afterAction?: "reset" }): Promise<void> {
  await sandbox("POST", "/faults", { method, path, ...fault });
}

export async function clearFaults(): Promise<void> {
  await sandbox("DELETE", "/faults");
}

export async function signInEhr(noteId: string): Promise<void> {
  await sandbox("POST", `/ehr/${ORG_A}/notes/${noteId}/sign`);
}

/** Someone else (another app on the same service) changes a field of the note. */
export async function editAsSomeoneElse(noteId: string, fields: Record<string, string>): Promise<void> {
  await upstream(`/v1/notes/${noteId}`, ORG_A, { method: "PATCH", body: fields });
}

/** Makes the app re-read the note now, as when the clinician comes back to the EHR's tab. */
export async function returnToTab(page: Page): Promise<void> {
  const frame = page.frames().find((candidate) => candidate.url().startsWith(process.env.E2E_APP_URL ?? "-"));
  if (!frame) throw new Error("app frame not found");
  // TanStack Query's focus manager listens for this on the window.
  await frame.evaluate(() => window.dispatchEvent(new Event("visibilitychange")));
}

/**
 * Types `text` at the end of `field` and reloads the page about 150 ms after
 * the last keystroke, before the draft's debounce (800 ms) has run; answers
 * the app's frame once the note is on screen again.
 */
export async function typeThenReload(page: Page, field: Locator, text: string): Promise<FrameLocator> {
  await field.press("End");
  await field.pressSequentially(text);
  await page.waitForTimeout(150);
  await page.reload();
  const app = page.frameLocator("iframe#tandem-app");
  await expect(app.getByTestId("note-view")).toHaveAttribute("data-state", "ready", { timeout: 20_000 });
  return app;
}
