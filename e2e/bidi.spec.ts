import type { Locator } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { ORG_A, openInHost, resetSandbox, sandbox, saveScreenshot, userWithRole } from "./support/sandbox.ts";
import { syncOrganization } from "./support/slots.ts";

// Text from the EHR or a user may carry a RIGHT-TO-LEFT
// OVERRIDE (U+202E). Drawn unisolated, it reverses Tandem's own words after
// it on the same line. Here a provider's displayed name carries one, and the
// availability agenda writes "<times> <provider> <how many at once>" on each
// of that provider's entries: the words after the name must still read left
// to right.

const OVERRIDE = "\u202e";

/** Whether the first two letters of `word`, where it follows the planted text in the element, are drawn left to right. */
async function drawnLeftToRight(element: Locator, word: string): Promise<boolean> {
  return element.evaluate(
    (root, { word, override }) => {
      const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      let seenOverride = false;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        if (text.includes(override)) seenOverride = true;
        const at = seenOverride ? text.indexOf(word, text.includes(override) ? text.indexOf(override) : 0) : -1;
        if (at === -1) continue;
        const left = (offset: number) => {
          const range = root.ownerDocument.createRange();
          range.setStart(node, offset);
          range.setEnd(node, offset + 1);
          return range.getBoundingClientRect().left;
        };
        return left(at + 1) > left(at);
      }
      throw new Error(`"${word}" does not follow the planted override`);
    },
    { word, override: OVERRIDE },
  );
}

/** The provider whose name is planted on, as the EHR had it: put back through a sync, so the BFF's directory forgets the planted name too (a reset of the sandbox alone leaves the BFF's cached copy for the next spec). */
let restore: (() => Promise<void>) | null = null;

test.afterEach(async () => {
  await restore?.();
  restore = null;
  await resetSandbox();
});

test("a provider's name with a right-to-left override does not reverse the words beside it", async ({ page }) => {
  const provider = await userWithRole(ORG_A, "Physician");
  const path = `/ehr/${ORG_A}/providers/${provider.id}`;
  const { provider: before } = await sandbox<{ provider: { lastName: string; displayLastName: string } }>("PATCH", path, {});
  restore = async () => {
    await sandbox("PATCH", path, { lastName: before.lastName, displayLastName: before.displayLastName });
    await syncOrganization(ORG_A);
  };
  await sandbox("PATCH", path, { lastName: `${OVERRIDE}Brooks`, displayLastName: `${OVERRIDE}Brooks, MD` });
  await syncOrganization(ORG_A);

  const app = await openInHost(page, { org: ORG_A });
  await app.getByRole("link", { name: "Availability" }).click();
  await expect(app.getByTestId("availability-week")).toHaveAttribute("data-state", "ready");
  await app.getByTestId("availability-layout-agenda").check({ force: true });
  // From today on: the week's earlier days are folded away.
  const entry = app.getByRole("list", { name: "Availability by day" }).getByTestId("availability-agenda-entry").filter({ hasText: OVERRIDE }).first();
  await expect(entry).toBeVisible();
  const line = entry.locator("p").first();
  const peak = ((await line.getByTestId("availability-agenda-peak").textContent()) ?? "").trim();
  // "1 at a time", "up to 3 at once": its last word follows the name on the same line.
  const word = peak.split(" ").at(-1) ?? "";
  expect(word.length).toBeGreaterThan(1);
  expect(await drawnLeftToRight(line, word)).toBe(true);
  await saveScreenshot(page, "bidi-override-in-provider-name");
});
