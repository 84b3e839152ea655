import { expect, test } from "./support/fixtures.ts";
import { noteScene, openNote } from "./support/notes.ts";
import { sandbox, saveScreenshot, upstream } from "./support/sandbox.ts";
import { startOwnServers, type OwnServers } from "./support/sandbox-servers.ts";

// An image delete whose answer Tandem's server never gave: the server is
// killed while the EHR is deleting the image, and started again. The EHR
// deletes it all the same; once the server answers again, the panel reads the
// note's images and says the EHR deleted it. Before, it went on saying the
// image "may not have been deleted" with Try again (found walking at 400 px).

interface Fault {
  method: string;
  path: string;
  hits: number;
}

const DELETE_PATH = "/v3/notes/{noteId}/images/{imageId}";

test.describe("an image delete cut off by a crash of Tandem's server", () => {
  let servers: OwnServers | null = null;

  test.beforeAll(async ({ pinnedInstant }) => {
    servers = await startOwnServers(pinnedInstant);
  });

  test.afterAll(async () => {
    await servers?.release();
  });

  test("says the EHR deleted the image once the server is back, and never sends it twice", async ({ page }) => {
    const bff = servers;
    if (!bff) throw new Error("no servers");
    const scene = await noteScene();
    const { images } = await upstream<{ images: { id: string; fileName: string }[] }>(`/v3/notes/${scene.note.id}/images`);
    const image = images[0];
    if (!image) throw new Error("no image");
    const app = await openNote(page, scene, { width: "360" });
    const panel = app.getByTestId("image-panel");

    // The EHR takes its time over the delete; Tandem's server dies once the delete has reached it.
    await sandbox("POST", "/faults", { method: "DELETE", path: DELETE_PATH, latencyMs: 1_500 });
    await panel.getByRole("button", { name: `Delete ${image.fileName}` }).click();
    await app.getByRole("alertdialog", { name: `Delete ${image.fileName}?` }).getByRole("button", { name: "Delete", exact: true }).click();
    await expect.poll(async () => (await sandbox<{ faults: Fault[] }>("GET", "/faults")).faults.find((fault) => fault.path === DELETE_PATH)?.hits ?? 0).toBe(1);
    await bff.stopBff("SIGKILL");
    try {
      await expect(panel).toContainText(`Tandem could not reach its server, so ${image.fileName} may not have been deleted. Try again.`);
      // From here a fault that adds nothing counts the deletes sent: none may be.
      await sandbox("DELETE", "/faults");
      await sandbox("POST", "/faults", { method: "DELETE", path: DELETE_PATH, latencyMs: 0 });
      // The EHR finishes the delete while Tandem's server is down.
      await expect.poll(async () => (await upstream<{ images: { id: string }[] }>(`/v3/notes/${scene.note.id}/images`)).images.map((listed) => listed.id)).not.toContain(image.id);
    } finally {
      await bff.restartBff();
    }

    await expect(panel).toContainText(`The EHR deleted ${image.fileName}; its answer was lost on the way, and the note's images now show it gone.`, { timeout: 30_000 });
    await expect(panel).not.toContainText("Tandem could not reach its server");
    await expect(panel.getByTestId("note-image").filter({ hasText: image.fileName })).toHaveCount(0);
    await expect(panel.getByRole("button", { name: `Try again to delete ${image.fileName}` })).toHaveCount(0);
    expect((await sandbox<{ faults: Fault[] }>("GET", "/faults")).faults.find((fault) => fault.path === DELETE_PATH)?.hits).toBe(0);
    await sandbox("DELETE", "/faults");
    await panel.scrollIntoViewIfNeeded();
    await saveScreenshot(page, "note-image-restart-back-400");
  });
});
