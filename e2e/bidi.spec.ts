import type { Locator } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { ORG_A, openInHost, resetSandbox, sandbox, saveScreenshot, userWithRole } from "./support/sandbox.ts";
import { syncOrganization } from "./support/slots.ts";

// Issue 15 item 10: text from the EHR or a user may carry a RIGHT-TO-LEFT
// OVERRIDE (U+202E). Drawn unisolated, it reverses Tandem's own words after
// it on the same line. Here a provider's last name carries one, and the
// whole-facility week grid writes "<last name> · <template name>" on each of
// that provider's bands: the template name must still read left to right.

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

test.afterEach(async () => {
  await resetSandbox();
});

test("a provider's name with a right-to-left override does not reverse the template name beside it", async ({ page }) => {
  const provider = await userWithRole(ORG_A, "Physician");
  await sandbox("PATCH", `/ehr/${ORG_A}/providers/${provider.id}`, { lastName: `${OVERRIDE}Brooks` });
  await syncOrganization(ORG_A);

  const app = await openInHost(page, { org: ORG_A });
  await app.getByRole("link", { name: "Availability" }).click();
  await expect(app.getByTestId("availability-week")).toHaveAttribute("data-state", "ready");
  await app.getByTestId("availability-view-facility").check({ force: true });
  const band = app.getByTestId("availability-band").filter({ hasText: OVERRIDE }).first();
  await expect(band).toBeVisible();
  const label = band.locator("span.truncate").first();
  const templateName = ((await label.textContent()) ?? "").split(" · ")[1]?.trim() ?? "";
  expect(templateName.length).toBeGreaterThan(1);
  expect(await drawnLeftToRight(label, templateName)).toBe(true);
  await saveScreenshot(page, "bidi-override-in-provider-name");
});
