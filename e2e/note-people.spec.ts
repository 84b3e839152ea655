import type { FrameLocator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { noteScene, openNote, type NoteScene } from "./support/notes.ts";
import { saveScreenshot, upstream } from "./support/sandbox.ts";

// ADR 0013: people and files in the note are named by what the
// note says about them, never shown as the EHR's numbers. The expectations
// are read from the service's own copy of the note: a care-team member is
// named wherever their integration user id is referenced; anyone else is
// "an EHR user".

interface CareTeamMember {
  id: string;
  fullName: string;
}

interface PeopleOfNote {
  soapNote: {
    careTeam: { physician: CareTeamMember | null; primaryBiller: CareTeamMember | null; attendees: { id: number; staff: CareTeamMember }[] };
    vitals: { takenByIntegrationUserId: string | null }[];
    stickyNote: { description: string; createdByIntegrationUserId: string | null };
    appointments: { providerIntegrationUserId: string | null }[];
    attachments: { integrationFileId: string }[];
  };
}

async function openSceneNote(page: Page): Promise<{ scene: NoteScene; note: PeopleOfNote; app: FrameLocator }> {
  const scene = await noteScene();
  const note = await upstream<PeopleOfNote>(`/v1/notes/${scene.note.id}`);
  const app = await openNote(page, scene);
  // Tasks and images load after the note: wait for both, so the whole view is read.
  await expect(app.getByTestId("task-panel")).toContainText("No tasks created through Tandem on this note yet.");
  await expect(app.getByTestId("note-image").first()).toBeVisible();
  return { scene, note, app };
}

function careTeamOf(note: PeopleOfNote): CareTeamMember[] {
  const { physician, primaryBiller, attendees } = note.soapNote.careTeam;
  return [physician, primaryBiller, ...attendees.map((attendee) => attendee.staff)].filter((member): member is CareTeamMember => member !== null);
}

/** Every number the note uses for a person or a file. */
function numbersIn(note: PeopleOfNote): string[] {
  const { soapNote } = note;
  return [
    ...careTeamOf(note).map((member) => member.id),
    ...soapNote.vitals.map((vital) => vital.takenByIntegrationUserId),
    soapNote.stickyNote.createdByIntegrationUserId,
    ...soapNote.appointments.map((appointment) => appointment.providerIntegrationUserId),
    ...soapNote.attachments.map((attachment) => attachment.integrationFileId),
  ].filter((id): id is string => id !== null && id.trim() !== "");
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("people and files in the note are named, never shown as numbers", async ({ page }) => {
  const { note, app } = await openSceneNote(page);
  const careTeam = careTeamOf(note);
  const nameOf = (id: string | null) => careTeam.find((member) => member.id === id)?.fullName ?? null;
  const view = app.getByTestId("note-view");

  const text = await view.innerText();
  expect(text).not.toMatch(/EHR (user|file) \d+/);
  for (const number of new Set(numbersIn(note))) expect(text).not.toMatch(new RegExp(`\\b${escapeRegExp(number)}\\b`));

  // The visit's provider is the care team's physician.
  const visit = note.soapNote.appointments[0];
  const provider = nameOf(visit?.providerIntegrationUserId ?? null);
  expect(provider, "the seeded visit's provider is on the care team").not.toBeNull();
  await expect(app.locator("#section-appointments")).toContainText(provider ?? "");

  // Vitals name whoever took them (the medical assistant, an attendee).
  const takenBy = nameOf(note.soapNote.vitals[0]?.takenByIntegrationUserId ?? null);
  if (takenBy !== null) await expect(app.locator("#section-vitals").getByRole("row", { name: /^Taken by/ })).toContainText(takenBy);

  // The sticky note's author is named when the care team names them, else "an EHR user".
  const author = note.soapNote.stickyNote.createdByIntegrationUserId;
  if (author !== null) await expect(app.locator("#section-sticky-note")).toContainText(`Left by ${nameOf(author) ?? "an EHR user"}`);

  const attachments = note.soapNote.attachments.length;
  if (attachments > 0) await expect(app.locator("#section-attachments")).toContainText(attachments === 1 ? "1 file is attached" : `${attachments} files are attached`);

  await app.locator("#section-sticky-note").scrollIntoViewIfNeeded();
  await saveScreenshot(page, "note-people-sticky-1280");
  await app.locator("#section-appointments").scrollIntoViewIfNeeded();
  await saveScreenshot(page, "note-people-appointments-1280");
});

test("people are named at 400 px too", async ({ page }) => {
  await page.setViewportSize({ width: 400, height: 860 });
  const { note, app } = await openSceneNote(page);
  const text = await app.getByTestId("note-view").innerText();
  expect(text).not.toMatch(/EHR (user|file) \d+/);
  const physician = note.soapNote.careTeam.physician;
  if (physician !== null) await expect(app.locator("#section-care-team")).toContainText(physician.fullName);
  await app.locator("#section-vitals").scrollIntoViewIfNeeded();
  await saveScreenshot(page, "note-people-vitals-400");
  await app.locator("#section-sticky-note").scrollIntoViewIfNeeded();
  await saveScreenshot(page, "note-people-sticky-400");
});
