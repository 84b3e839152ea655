import { type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { appUrl, expectAccessibleOn, resetSandbox, saveScreenshot } from "./support/sandbox.ts";
import { signInOutsideEhr } from "./support/standalone.ts";

// Standalone mode (ADR 0010): Tandem opened at the BFF's own URL (no iframe),
// signed in through the emulator's authorize and consent pages, an
// organization picked, a slot held; and a denial ending on a clear page.

const MULTI_ORG_ACCOUNT = /Jacob Brooks/;

async function signInThroughService(page: Page, decision: "allow" | "deny"): Promise<void> {
  await page.goto(appUrl());
  await expect(page.getByRole("heading", { name: "Sign in to Tandem" })).toBeVisible();
  await expectAccessibleOn(page);
  await page.getByRole("link", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Sign in to Clinic Data Service" })).toBeVisible();
  await page.locator("#oauth-account").selectOption({ label: (await page.locator("#oauth-account option").filter({ hasText: MULTI_ORG_ACCOUNT }).first().textContent()) ?? "" });
  await page.locator("#oauth-sign-in").click();
  await expect(page.locator("#oauth-consent-form")).toBeVisible();
  await saveScreenshot(page, "standalone-consent");
  await page.locator(decision === "allow" ? "#oauth-allow" : "#oauth-deny").click();
}

test.beforeEach(async () => {
  await resetSandbox();
});

test("signs in outside the EHR, picks an organization, and holds a slot", async ({ page }) => {
  await signInThroughService(page, "allow");
  await expect(page.getByRole("heading", { name: "Choose an organization" })).toBeVisible();
  await saveScreenshot(page, "standalone-organizations");
  await expectAccessibleOn(page);
  await page.getByRole("radio", { name: /Riverside/ }).check();
  await page.getByRole("button", { name: "Continue" }).click();

  await expect(page.getByTestId("standalone-bar")).toContainText("Signed in outside the EHR as");
  await expect(page.getByTestId("organization-name")).toContainText("Riverside");
  await page.getByRole("link", { name: "Slots" }).click();
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const firstSlot = page.getByTestId("slot").first();
  await expect(firstSlot).toBeVisible({ timeout: 20_000 });
  await firstSlot.click();
  const panel = page.getByTestId("hold-panel");
  await expect(panel).toHaveAttribute("data-state", "held", { timeout: 20_000 });
  await expect(panel).toContainText("book it in the EHR");
  await expect(panel.getByTestId("book-in-ehr")).toHaveCount(0);
  await saveScreenshot(page, "standalone-held");

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Sign in to Tandem" })).toBeVisible();
});

test("signing out everywhere ends the session in the person's other browser too", async ({ page, browser }) => {
  await signInThroughService(page, "allow");
  await page.getByRole("radio", { name: /Riverside/ }).check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByTestId("standalone-bar")).toBeVisible();

  const laptop = await browser.newContext();
  try {
    const other = await laptop.newPage();
    // The service already remembers the consent (another browser of the same person).
    await signInOutsideEhr(other);
    await other.getByRole("link", { name: "Slots" }).click();
    await page.getByTestId("sign-out-everywhere").click();
    await expect(page.getByRole("heading", { name: "Sign in to Tandem" })).toBeVisible();
    // Untouched, the other browser is asked to sign in: its live-event stream ended with its session
    // (issue 34 item 3), and the reconnection's 401 ended the sign-in there.
    await expect(other.getByRole("heading", { name: "Sign in to Tandem" })).toBeVisible({ timeout: 10_000 });
    await saveScreenshot(other, "standalone-signed-out-elsewhere");
  } finally {
    await laptop.close();
  }
});

test("a denial at the consent screen ends on a clear page", async ({ page }) => {
  await signInThroughService(page, "deny");
  await expect(page.getByRole("heading", { name: "Sign in to Tandem" })).toBeVisible();
  await expect(page.getByRole("alert")).toContainText("You did not allow Tandem");
  await saveScreenshot(page, "standalone-denied");
});
