import { decide, isConsentPage, isSignInPage, signIn } from "../../emulator/oauth/testing/oauth-flow.ts";
import { TestBrowser, type BrowserPage } from "../../emulator/oauth/testing/test-browser.ts";
import type { BffHarness } from "./bff-harness.ts";

// A browser signed in outside the EHR, in-process (DESIGN.md "Standalone
// mode"): the BFF's /auth/login, the emulator's authorize and consent pages,
// the callback, then an organization picked. Its `api` calls /api with the
// session cookie alone, from the app's own origin, as the SPA does.

const APP = "http://localhost:8787";
const SESSION_COOKIE = "__Host-tandem-session";

export interface StandaloneUser {
  api(path: string, init?: { method?: string; body?: unknown }): Promise<Response>;
  chooseOrganization(organizationId: string): Promise<void>;
  /** The session cookie's value as last set (the `__Host-tandem-session` secret). */
  cookie(): string;
  /** The `Cookie` header the browser sends: to call another BFF process sharing the store as the same browser. */
  cookieHeader(): string;
}

function locationOf(page: BrowserPage): string {
  if (page.location === null) throw new Error(`expected a redirect, got ${page.status}: ${page.html.slice(0, 200)}`);
  return page.location;
}

export async function signInStandalone(harness: Pick<BffHarness, "bff" | "emulator">, accountId: string, organizationId: string): Promise<StandaloneUser> {
  const app = new TestBrowser((path, init) => harness.bff.app.request(path.replace(APP, ""), init));
  const idp = new TestBrowser((path, init) => harness.emulator.emulator.app.request(path.replace(/^https?:\/\/[^/]+/, ""), init));
  const authorize = new URL(locationOf(await app.get("/auth/login?returnTo=/note")));
  let page = await idp.get(`${authorize.pathname}${authorize.search}`);
  if (isSignInPage(page)) page = await signIn(idp, page, accountId);
  if (isConsentPage(page)) page = await decide(idp, page, "allow");
  await app.get(locationOf(page));
  let session = app.cookie(SESSION_COOKIE);
  if (session === undefined) throw new Error("the sign-in set no session cookie");

  const api: StandaloneUser["api"] = async (path, init = {}) => {
    const headers: Record<string, string> = { accept: "application/json", cookie: `${SESSION_COOKIE}=${session ?? ""}`, origin: APP };
    if (init.body !== undefined) headers["content-type"] = "application/json";
    const response = await harness.bff.app.request(path, { method: init.method ?? "GET", headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
    const renewed = response.headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`));
    if (renewed) session = renewed.slice(SESSION_COOKIE.length + 1).split(";")[0];
    return response;
  };
  const user: StandaloneUser = {
    api,
    cookie: () => session ?? "",
    cookieHeader: () => `${SESSION_COOKIE}=${session ?? ""}`,
    async chooseOrganization(id) {
      const chosen = await api("/auth/organization", { method: "POST", body: { organizationId: id } });
      if (chosen.status !== 200) throw new Error(`choosing ${id}: ${chosen.status} ${await chosen.text()}`);
    },
  };
  await user.chooseOrganization(organizationId);
  return user;
}
