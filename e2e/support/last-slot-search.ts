import type { Page } from "@playwright/test";
import { callApp, ORG_A, ORG_B, sandboxUsers } from "./sandbox.ts";

// Each user's last slot search lives in the worker's BFF store, which outlives
// a test (issue 36 item 8): the searches a test kept are forgotten after it
// (fixtures.ts), so every test's slot finder opens on the defaults unless it
// searched itself. Only those users' are forgotten: a sweep of every user of
// both organizations after every test costs seconds on a busy machine. A save
// the app sends after the test's end (it waits a moment after a search) is
// noted too, and forgotten before the next test starts; a save still on its
// way is waited for first, so it cannot land after the DELETE. The save sent
// as the page closes (a keepalive PUT on pagehide) is not reported to the
// test at all: so every user the slot finder searched for (any /api/slots
// request) is forgotten, after the test and once more before the next.

interface Kept {
  organizationId: string;
  userId: string;
}

const kept = new Map<string, Kept>();
/** Saves sent and not yet answered: one landing after the DELETE would outlive it and leak into the next test. */
const inFlight = new Set<Promise<unknown>>();
/** A save the page made without a host token (signed in outside the EHR): whose it was is not known here. */
let keptByUnknownUser = false;

function remember(entry: Kept): void {
  kept.set(`${entry.organizationId}|${entry.userId}`, entry);
}

/** The host token's organization and user (`org_id`, `sub`), read without verifying: the sandbox minted it. */
function userOfToken(authorization: string | undefined): Kept | null {
  const payload = authorization?.replace(/^Bearer /, "").split(".")[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { org_id?: unknown; sub?: unknown };
    return typeof claims.org_id === "string" && typeof claims.sub === "string" ? { organizationId: claims.org_id, userId: claims.sub } : null;
  } catch {
    return null;
  }
}

/** Notes whose last slot search the app may save, in every tab of the page's browser context, to forget it after the test. */
export function recordLastSlotSearchSaves(page: Page): void {
  page.context().on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (!path.startsWith("/api/slots")) return;
    const user = userOfToken(request.headers().authorization);
    if (user) remember(user);
    const isSave = request.method() === "PUT" && path === "/api/slots/last-search";
    if (!isSave) return;
    if (!user) keptByUnknownUser = true;
    const answered = request.response().catch(() => null);
    inFlight.add(answered);
    void answered.finally(() => inFlight.delete(answered));
  });
}

/**
 * Forgets the last slot search of every user a test kept one for (of every user of both organizations, when it cannot
 * say whose). `when: "after the test"` keeps those users in mind, for the same again before the next test.
 */
export async function forgetKeptLastSlotSearches(when: "after the test" | "before the next"): Promise<void> {
  await Promise.race([Promise.allSettled([...inFlight]), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
  const users: Kept[] = [...kept.values()];
  if (keptByUnknownUser) {
    for (const organizationId of [ORG_A, ORG_B]) users.push(...(await sandboxUsers(organizationId)).map((user) => ({ organizationId, userId: user.id })));
  }
  if (when === "before the next") {
    kept.clear();
    keptByUnknownUser = false;
  }
  await Promise.all(users.map((user) => callApp("DELETE", "/api/slots/last-search", user)));
}

/** Keeps `search` as the user's last slot search, as the slot finder would after a search. */
export async function keepLastSlotSearch(organizationId: string, userId: string, search: Record<string, unknown>): Promise<void> {
  remember({ organizationId, userId });
  await callApp("PUT", "/api/slots/last-search", { organizationId, userId }, { search });
}

/** The BFF's answer to the slot finder's save of the last search, once it has one whose body holds `param`. */
export function savedSearch(page: Page, param: string): Promise<unknown> {
  return page.waitForResponse((response) => response.url().endsWith("/api/slots/last-search") && response.request().method() === "PUT" && (response.request().postData() ?? "").includes(param) && response.ok());
}
