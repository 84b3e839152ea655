import { expect, type Page } from "@playwright/test";
import { appUrl } from "./sandbox.ts";

/**
 * Signs in outside the EHR through the service's sign-in page as Dr. Jacob
 * Brooks (one person in org A and org B), allows the sharing when asked (a
 * later sign-in may not ask), and opens Riverside (org A): the standalone bar
 * is showing when it returns.
 */
export async function signInOutsideEhr(page: Page): Promise<void> {
  await page.goto(appUrl());
  await page.getByRole("link", { name: "Sign in" }).click();
  const account = page.locator("#oauth-account option").filter({ hasText: /Jacob Brooks/ }).first();
  await page.locator("#oauth-account").selectOption({ label: (await account.textContent()) ?? "" });
  await page.locator("#oauth-sign-in").click();
  const consent = page.locator("#oauth-allow");
  const chooser = page.getByRole("heading", { name: "Choose an organization" });
  await expect(consent.or(chooser)).toBeVisible();
  if (await consent.isVisible()) await consent.click();
  await page.getByRole("radio", { name: /Riverside/ }).check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByTestId("standalone-bar")).toBeVisible();
}
