import { expect, test } from "./support/fixtures.ts";
import { sandbox, saveScreenshot } from "./support/sandbox.ts";
import { startOwnServers, type OwnServers } from "./support/sandbox-servers.ts";
import { listedSlots, openSlotFinder, slotButton } from "./support/slots.ts";

// A hold whose answer Tandem's server never gave: the server is killed while
// the EHR is making it, and started again. What the EHR may have made is the
// user's until it frees itself (ADR 0012 addendum); once the server is back
// and lists it, the panel says so and no longer says the server cannot be
// reached. The server's write intent turns unknown only after 60 s
// (WRITE_IN_FLIGHT_MS): the sandbox's clock is moved past them while it is
// down, so the server starts on the later clock (SANDBOX_CLOCK=emulator)
// instead of the test waiting a minute.

interface Fault {
  method: string;
  path: string;
  hits: number;
}

test.describe("a hold cut off by a crash of Tandem's server", () => {
  let servers: OwnServers | null = null;

  test.beforeAll(async ({ pinnedInstant }) => {
    servers = await startOwnServers(pinnedInstant);
  });

  test.afterAll(async () => {
    await servers?.release();
  });

  test("is listed as not confirmed once the server is back, and the panel stops saying the server cannot be reached", async ({ page }) => {
    const bff = servers;
    if (!bff) throw new Error("no servers");
    const app = await openSlotFinder(page);
    const [target] = await listedSlots(app);
    if (!target) throw new Error("no slot listed");

    // The EHR takes its time over the hold; Tandem's server dies once the hold has reached it.
    await sandbox("POST", "/faults", { method: "POST", path: "/v4/schedule/holds", latencyMs: 5_000 });
    await slotButton(app, target).click();
    const panel = app.getByTestId("selection-panel");
    await expect(panel).toHaveAttribute("data-state", "holding");
    await expect.poll(async () => (await sandbox<{ faults: Fault[] }>("GET", "/faults")).faults.find((fault) => fault.path === "/v4/schedule/holds")?.hits ?? 0).toBe(1);
    await bff.stopBff("SIGKILL");
    try {
      await expect(panel).toHaveAttribute("data-state", "failed");
      await expect(panel).toContainText("Tandem's server did not answer while holding");
      await expect(panel).toContainText("Tandem could not reach its server");
      await sandbox("DELETE", "/faults");
      await sandbox("POST", "/clock", { advanceSeconds: 61 });
      await page.clock.fastForward(61_000);
    } finally {
      await bff.restartBff();
    }

    const bar = app.getByTestId("holds-bar");
    await expect(bar).toContainText("The EHR may be holding 1 slot for you that it did not confirm", { timeout: 30_000 });
    await expect(panel).toContainText("The EHR may have held this slot for you");
    await expect(panel).toContainText("It is listed below as not confirmed, and frees itself by");
    await expect(panel).not.toContainText("Tandem could not reach its server");
    await saveScreenshot(page, "holds-restart-back-1280");
    await page.setViewportSize({ width: 400, height: 860 });
    await expect(bar).toContainText("You may be holding 1 slot · not confirmed");
    await expect(panel.getByRole("button", { name: "Try again" })).toBeVisible();
    await saveScreenshot(page, "holds-restart-back-400");
  });
});
