// @vitest-environment happy-dom
import { act, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { noteImageDeleteResponse, noteImagesResponse } from "#contract/app-api/note.ts";
import type { NoteImage } from "#contract/clinic-api/note.ts";
import { reportBffAnswered } from "#src/api/bff-reachability.ts";
import { renderWithUser } from "#src/testing/render.tsx";
import { failure, heldAnswer, installFakeBff, ok, type BffReply, type FakeBff } from "#src/testing/fake-bff.ts";
import { buildNoteFixture } from "../reading/testing/note-fixture.ts";
import { ImagePanel } from "./image-panel.tsx";

// The note's images as a clinician uses them: the list, deleting one after a
// confirmation that names the file (from the mouse and the keyboard), and
// what a failed delete says: which system failed, whether the image may be
// gone, Try again where it helps, a signed note turning the panel read-only.
// The BFF is faked at `fetch` (src/testing/fake-bff.ts).

const NOTE = buildNoteFixture();
const IMAGES_PATH = `/api/notes/${NOTE.id}/images`;
const LESION: NoteImage = { id: "img_0a1b2c3d4e5f60718293a4b5c6d7e8f9", fileName: "lesion-upper-back.png", mimeType: "image/png", sizeKb: 240, status: "pending_upload" };
const DERMOSCOPY: NoteImage = { id: "img_f9e8d7c6b5a4039281706f5e4d3c2b1a", fileName: "dermoscopy.jpg", mimeType: "image/jpeg", sizeKb: 1_229, status: "uploaded" };
const DELETE_LESION = `${IMAGES_PATH}/${LESION.id}`;

/** The images the BFF lists now: a test changes them as the EHR would. */
let listed: NoteImage[];
let bff: FakeBff;
beforeEach(() => {
  listed = [LESION, DERMOSCOPY];
  bff = installFakeBff();
  bff.on("GET", IMAGES_PATH, () => ok(noteImagesResponse, { images: listed }));
});
// Every call the panel made was one the test expected.
afterEach(() => expect(bff.unanswered).toEqual([]));

const deletedAnswer = () => {
  listed = listed.filter((image) => image.id !== LESION.id);
  return ok(noteImageDeleteResponse, { image: LESION });
};

const renderPanel = (readOnlyReason: string | null = null) => renderWithUser(<ImagePanel noteId={NOTE.id} readOnlyReason={readOnlyReason} timezone={NOTE.facility.timezone} />);
const imageList = () => screen.findByRole("list", { name: "Images on this note" });
const heading = () => screen.getByRole("heading", { name: "Images" });

/** Opens the confirmation for the lesion image and answers Delete in it. */
async function deleteLesion(user: ReturnType<typeof renderPanel>["user"]) {
  await user.click(within(await imageList()).getByRole("button", { name: "Delete lesion-upper-back.png" }));
  const dialog = await screen.findByRole("alertdialog", { name: "Delete lesion-upper-back.png?" });
  await user.click(within(dialog).getByRole("button", { name: "Delete" }));
}

describe("the note's images", () => {
  it("lists each image by file name, with its type, size and status", async () => {
    renderPanel();
    const items = within(await imageList()).getAllByRole("listitem");
    expect(items.map((item) => item.textContent)).toEqual(["lesion-upper-back.pngPNG image · 240 KB · Upload pendingDelete", "dermoscopy.jpgJPEG image · 1.2 MB · UploadedDelete"]);
  });

  it("says when there are none, and names the system when they cannot be read", async () => {
    bff.once("GET", IMAGES_PATH, failure(502, { code: "upstream_unavailable", message: "The clinic data service did not answer" }));
    const { user } = renderPanel();
    const notice = await screen.findByRole("alert");
    expect(notice.textContent).toMatch(/clinic data service/);
    listed = [];
    await user.click(within(notice).getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("No images on this note.")).toBeTruthy();
  });

  it("on a signed note: listed, with the reason and no Delete", async () => {
    renderPanel("This note is signed in the EHR; it can no longer be changed here.");
    await imageList();
    expect(screen.getByText("This note is signed in the EHR; it can no longer be changed here.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: /^Delete/ })).toBeNull();
  });
});

describe("deleting an image", () => {
  it("asks first, naming the file and that the EHR deletes it; Cancel and Escape keep it and give focus back", async () => {
    const { user } = renderPanel();
    const deleteButton = within(await imageList()).getByRole("button", { name: "Delete lesion-upper-back.png" });
    deleteButton.focus();
    await user.keyboard("{Enter}");
    const dialog = await screen.findByRole("alertdialog", { name: "Delete lesion-upper-back.png?" });
    expect(dialog.textContent).toContain("lesion-upper-back.png will be deleted from this note in the EHR, not only in Tandem. This cannot be undone.");
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(deleteButton));

    await user.keyboard("{Enter}");
    await screen.findByRole("alertdialog");
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("alertdialog")).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(deleteButton));
    expect(bff.calls("DELETE", DELETE_LESION)).toHaveLength(0);
    expect(within(await imageList()).getAllByRole("listitem")).toHaveLength(2);
  });

  it("deletes it in the EHR, says so while it runs and when done, and puts focus on the panel's heading", async () => {
    const held = heldAnswer();
    bff.once("DELETE", DELETE_LESION, held.answer);
    const { user } = renderPanel();
    await deleteLesion(user);

    const dialog = screen.getByRole("alertdialog");
    expect(within(dialog).getByRole("button", { name: "Deleting…" }).hasAttribute("disabled")).toBe(true);
    expect(within(dialog).getByRole("button", { name: "Cancel" }).hasAttribute("disabled")).toBe(true);
    expect(screen.getByText("Deleting lesion-upper-back.png…")).toBeTruthy();

    held.release(deletedAnswer());
    expect(await screen.findByText("lesion-upper-back.png deleted")).toBeTruthy();
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(within(await imageList()).queryByText("lesion-upper-back.png")).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(heading()));
    expect(bff.calls("DELETE", DELETE_LESION)).toHaveLength(1);
  });

  it.each([
    {
      what: "the service not reached: not deleted",
      answer: () => failure(502, { code: "upstream_unavailable", message: "The clinic data service did not answer" }),
      words: "The clinic data service did not answer, so lesion-upper-back.png was not deleted. Try again.",
    },
    {
      what: "the service busy: not deleted",
      answer: () => failure(429, { code: "rate_limited", message: "Too many requests" }),
      words: "The clinic data service is busy, so lesion-upper-back.png was not deleted. Try again in a moment.",
    },
    {
      what: "the service busy, saying for how long: not deleted",
      answer: () => failure(429, { code: "rate_limited", message: "Too many requests", retry_after_seconds: 4 }),
      words: "The clinic data service is busy, so lesion-upper-back.png was not deleted. Try again in 4 seconds.",
    },
    {
      what: "the EHR failing after it was sent: may be deleted",
      answer: () => failure(502, { code: "unexpected_integration_error", message: "The EHR failed", upstream_trace_id: "svc_1" }),
      words: "The EHR reported a failure, so lesion-upper-back.png may be deleted already. Try again to find out.",
    },
    {
      what: "Tandem's server not reached: may not be deleted",
      answer: (): BffReply => {
        throw new TypeError("Failed to fetch");
      },
      words: "Tandem could not reach its server, so lesion-upper-back.png may not have been deleted. Try again.",
    },
  ])("a failed delete names the system and what became of the image ($what); Try again is focused and sends it again", async ({ answer, words }) => {
    bff.once("DELETE", DELETE_LESION, answer);
    bff.once("DELETE", DELETE_LESION, deletedAnswer);
    const { user } = renderPanel();
    await deleteLesion(user);

    const notice = await screen.findByRole("alert");
    expect(within(notice).getByText(words)).toBeTruthy();
    const tryAgain = within(notice).getByRole("button", { name: "Try again to delete lesion-upper-back.png" });
    await waitFor(() => expect(document.activeElement).toBe(tryAgain));
    expect(within(await imageList()).getByText("lesion-upper-back.png")).toBeTruthy();

    await user.keyboard("{Enter}");
    expect(await screen.findByText("lesion-upper-back.png deleted")).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(bff.calls("DELETE", DELETE_LESION)).toHaveLength(2);
  });

  it("an answer lost after sending: reads the images again and says whether the EHR deleted it", async () => {
    bff.once("DELETE", DELETE_LESION, () => {
      listed = [DERMOSCOPY];
      return failure(502, { code: "outcome_unknown", message: "No answer", failed_system: "service", intent_id: "intent-1" });
    });
    const { user } = renderPanel();
    await deleteLesion(user);

    expect(await screen.findByText("The EHR deleted lesion-upper-back.png; its answer was lost on the way, and the note's images now show it gone.")).toBeTruthy();
    expect(await screen.findByText("lesion-upper-back.png deleted")).toBeTruthy();
    await waitFor(async () => expect(within(await imageList()).queryByText("lesion-upper-back.png")).toBeNull());
  });

  it("Tandem's server not reached, then answering again: reads the images again and says the EHR deleted it where the request got through", async () => {
    bff.once("DELETE", DELETE_LESION, (): BffReply => {
      // The BFF sent it and the EHR deleted it; the connection failed before the answer came back.
      listed = [DERMOSCOPY];
      throw new TypeError("Failed to fetch");
    });
    const { user } = renderPanel();
    await deleteLesion(user);
    expect(await screen.findByText("Tandem could not reach its server, so lesion-upper-back.png may not have been deleted. Try again.")).toBeTruthy();
    const reads = bff.calls("GET", IMAGES_PATH).length;

    act(() => reportBffAnswered());
    expect(await screen.findByText("The EHR deleted lesion-upper-back.png; its answer was lost on the way, and the note's images now show it gone.")).toBeTruthy();
    expect(screen.queryByText(/Tandem could not reach its server/)).toBeNull();
    expect(bff.calls("GET", IMAGES_PATH).length).toBeGreaterThan(reads);
    await waitFor(async () => expect(within(await imageList()).queryByText("lesion-upper-back.png")).toBeNull());
    expect(bff.calls("DELETE", DELETE_LESION)).toHaveLength(1);
  });

  it("Tandem's server not reached, then answering again, the image still listed: not deleted, Try again", async () => {
    bff.once("DELETE", DELETE_LESION, (): BffReply => {
      throw new TypeError("Failed to fetch");
    });
    const { user } = renderPanel();
    await deleteLesion(user);
    await screen.findByText("Tandem could not reach its server, so lesion-upper-back.png may not have been deleted. Try again.");

    act(() => reportBffAnswered());
    const notice = await screen.findByRole("alert");
    await waitFor(() => expect(notice.textContent).toContain("The EHR did not delete lesion-upper-back.png: it is still on the note. Try again."));
    expect(within(notice).getByRole("button", { name: "Try again to delete lesion-upper-back.png" })).toBeTruthy();
  });

  it("an answer lost after sending, and the image still listed: not deleted, Try again", async () => {
    bff.once("DELETE", DELETE_LESION, failure(502, { code: "outcome_unknown", message: "No answer", failed_system: "ehr", intent_id: "intent-1" }));
    const { user } = renderPanel();
    await deleteLesion(user);

    const notice = await screen.findByRole("alert");
    await waitFor(() => expect(notice.textContent).toContain("The EHR did not delete lesion-upper-back.png: it is still on the note. Try again."));
    expect(within(notice).getByRole("button", { name: "Try again to delete lesion-upper-back.png" })).toBeTruthy();
  });

  it("already gone from the note: says so and takes it off the list", async () => {
    bff.once("DELETE", DELETE_LESION, () => {
      listed = [DERMOSCOPY];
      return failure(404, { code: "not_found", message: "No such image" });
    });
    const { user } = renderPanel();
    await deleteLesion(user);

    expect(await screen.findByText("lesion-upper-back.png is no longer on this note: it was already deleted.")).toBeTruthy();
    expect(within(await imageList()).queryByText("lesion-upper-back.png")).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(heading()));
  });

  it("the note signed in the EHR meanwhile: the panel says so once and offers no more deletes", async () => {
    bff.once("DELETE", DELETE_LESION, failure(409, { code: "conflict", message: "The note is signed" }));
    const { user } = renderPanel();
    await deleteLesion(user);

    expect(await screen.findAllByText("This note was signed in the EHR, so its images can no longer be deleted.")).toHaveLength(1);
    expect(screen.queryByRole("button", { name: /^Delete/ })).toBeNull();
    expect(within(await imageList()).getAllByRole("listitem")).toHaveLength(2);
  });
});
