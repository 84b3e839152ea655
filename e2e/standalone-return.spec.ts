import { expect, test } from "./support/fixtures.ts";
import { appUrl, resetSandbox } from "./support/sandbox.ts";

// In Chromium: after the standalone sign-in the app returns
// only to its own routes. A `returnTo` with a tab between slashes once sent
// the browser to another host ("/\t/host" is "//host" to a browser).

const MULTI_ORG_ACCOUNT = /Jacob Brooks/;

test.beforeEach(async () => {
  await resetSandbox();
});

test("a sign-in asked to return off the app (a tab between slashes) lands on the app's own start page", async ({ page }) => {
  const app = new URL(appUrl());
  // The same host the BFF listens on, another port: where the repro went.
  const elsewhere = `${app.hostname}:${Number(app.port) + 1}/pwn`;
  await page.goto(`${app.origin}/auth/login?returnTo=${encodeURIComponent(`/\t/${elsewhere}`)}`);
  await expect(page.getByRole("heading", { name: "Sign in to Clinic Data Service" })).toBeVisible();
  await page.locator("#oauth-account").selectOption({ label: (await page.locator("#oauth-account option").filter({ hasText: MULTI_ORG_ACCOUNT }).first().textContent()) ?? "" });
  await page.locator("#oauth-sign-in").click();
  await page.locator("#oauth-allow").click();
  await expect(page.getByRole("heading", { name: "Choose an organization" })).toBeVisible();
  const landed = new URL(page.url());
  expect(landed.origin).toBe(app.origin);
  expect(landed.pathname).toBe("/");
});
