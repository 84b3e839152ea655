import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { session as sessionSchema } from "#contract/app-api/session.ts";
import { standaloneSessionList } from "#contract/app-api/standalone.ts";
import { findSingleOrgAccount } from "../../emulator/oauth/accounts.ts";
import { ORG_A_ID, ORG_B_ID } from "../../emulator/world/identities.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";
import { signInStandalone, type StandaloneUser } from "../testing/standalone-sign-in.ts";

// Issue 34 item 3 (DESIGN.md "Rules": revoking a session or a user's access
// closes their live streams within a second), on the real BFF in-process: a
// `GET /api/events` stream ends when its session is signed out, ended from
// another browser or by "sign out everywhere else", when the re-check finds
// the user's access changed, and when the organization is uninstalled,
// however the BFF learns it; and its reconnection is refused. One process
// here (PGlite); server/two-process/stream-revocation.test.ts has two.

let store: Store;
let harness: BffHarness;

beforeAll(async () => {
  store = await createStore();
  harness = await createBffHarness(store);
}, 60_000);

afterAll(async () => {
  await harness.close();
  await store.close();
});

beforeEach(async () => {
  await harness.reset();
});

interface WatchedStream {
  ended(): boolean;
  cancel(): Promise<void>;
}

/** Reads an open stream to its end in the background. */
function watch(response: Response): WatchedStream {
  expect(response.status).toBe(200);
  const reader: ReadableStreamDefaultReader<Uint8Array> = (response.body ?? new ReadableStream<Uint8Array>()).getReader();
  let ended = false;
  void (async () => {
    try {
      for (;;) if ((await reader.read()).done) break;
    } finally {
      ended = true;
    }
  })().catch(() => undefined);
  return { ended: () => ended, cancel: () => reader.cancel().catch(() => undefined) };
}

const endsWithinASecond = (stream: WatchedStream) => vi.waitFor(() => expect(stream.ended()).toBe(true), { timeout: 1_000, interval: 5 });

const frontDesk = () => findSingleOrgAccount(harness.emulator.emulator.state, ORG_A_ID, "Front Desk");

async function signedIn(accountId = frontDesk().id): Promise<{ user: StandaloneUser; stream: WatchedStream; sessionId: string }> {
  const user = await signInStandalone(harness, accountId, ORG_A_ID);
  const list = z.parse(standaloneSessionList, await (await user.api("/auth/sessions")).json());
  const sessionId = list.sessions.find((entry) => entry.current)?.id ?? "";
  return { user, stream: watch(await user.api("/api/events")), sessionId };
}

describe("a standalone session's live streams end with it", () => {
  it("POST /auth/logout ends the session's stream, and its reconnection is refused 401; the user's other session keeps its stream", async () => {
    const laptop = await signedIn();
    const phone = await signedIn();
    const cookie = laptop.user.cookieHeader();
    expect((await laptop.user.api("/auth/logout", { method: "POST" })).status).toBe(200);
    await endsWithinASecond(laptop.stream);
    expect(phone.stream.ended()).toBe(false);
    expect((await harness.bff.app.request("/api/events", { headers: { cookie } })).status).toBe(401);
    await phone.stream.cancel();
  });

  it("DELETE /auth/sessions/:id from another browser ends that session's stream, not the caller's", async () => {
    const laptop = await signedIn();
    const phone = await signedIn();
    expect((await laptop.user.api(`/auth/sessions/${phone.sessionId}`, { method: "DELETE" })).status).toBe(200);
    await endsWithinASecond(phone.stream);
    expect(laptop.stream.ended()).toBe(false);
    expect((await phone.user.api("/api/events")).status).toBe(401);
    await laptop.stream.cancel();
  });

  it("DELETE /auth/sessions (sign out everywhere else) ends every other session's streams, not the caller's nor another user's", async () => {
    const laptop = await signedIn();
    const phone = await signedIn();
    const tablet = await signedIn();
    const secondTab = watch(await tablet.user.api("/api/events"));
    const physician = findSingleOrgAccount(harness.emulator.emulator.state, ORG_A_ID, "Physician");
    const colleague = await signedIn(physician.id);
    // The account's sessions of the tests before are ended too; those of this test are what is watched.
    expect((await laptop.user.api("/auth/sessions", { method: "DELETE" })).status).toBe(200);
    for (const stream of [phone.stream, tablet.stream, secondTab]) await endsWithinASecond(stream);
    expect(laptop.stream.ended()).toBe(false);
    expect(colleague.stream.ended()).toBe(false);
    for (const stream of [laptop.stream, colleague.stream]) await stream.cancel();
  });
});

describe("an organization's live streams end when it is no longer installed", () => {
  it("ends them when the registry learns of the uninstall from the installations list (its webhook lost), and refuses the reconnection 403", async () => {
    const token = await harness.hostToken({ organizationId: ORG_B_ID });
    const stream = watch(await harness.api("/api/events", { token }));
    const otherOrganization = watch(await harness.api("/api/events", { token: await harness.hostToken() }));
    harness.webhookGate = () => false;
    await harness.emulator.sandbox("POST", `/installations/${ORG_B_ID}`, { status: "uninstalled" });
    await harness.bff.installations.refresh();
    await endsWithinASecond(stream);
    expect(otherOrganization.ended()).toBe(false);
    expect((await harness.api("/api/events", { token: await harness.hostToken({ organizationId: ORG_B_ID }) })).status).toBe(403);

    await harness.emulator.sandbox("POST", `/installations/${ORG_B_ID}`, { status: "active" });
    await harness.bff.installations.refresh();
    await otherOrganization.cancel();
  });

  it("ends them on app.uninstalled, and a standalone user's too", async () => {
    const physician = findSingleOrgAccount(harness.emulator.emulator.state, ORG_A_ID, "Physician");
    const standalone = await signedIn(physician.id);
    const embedded = watch(await harness.api("/api/events", { token: await harness.hostToken() }));
    await harness.emulator.sandbox("POST", `/installations/${ORG_A_ID}`, { status: "uninstalled" });
    await harness.settle();
    for (const stream of [standalone.stream, embedded]) await endsWithinASecond(stream);

    await harness.emulator.sandbox("POST", `/installations/${ORG_A_ID}`, { status: "active" });
    await harness.settle();
  });
});

// Last: it moves the clocks, which the emulator's reset between tests would move back (host tokens would then look expired).
describe("a user whose access changed", () => {
  it("a role change the re-check finds ends the user's streams, and they reconnect under the new role; made inactive, the sign-in is revoked, its stream ends and is refused 401", async () => {
    const physician = findSingleOrgAccount(harness.emulator.emulator.state, ORG_A_ID, "Physician");
    const laptop = await signedIn(physician.id);
    const phone = await signedIn(physician.id);
    const providerId = z.parse(sessionSchema, await (await laptop.user.api("/api/session")).json()).user.id;

    await harness.emulator.sandbox("PATCH", `/ehr/${ORG_A_ID}/providers/${providerId}`, { roles: ["Front Desk"] });
    harness.advanceClocks(5 * 60);
    // Any request of the user past REVERIFY_AFTER_MS re-checks them with the service.
    expect((await laptop.user.api("/api/session")).status).toBe(200);
    for (const stream of [laptop.stream, phone.stream]) await endsWithinASecond(stream);
    const reconnected = watch(await laptop.user.api("/api/events"));

    // Made inactive in its only organization: the service no longer confirms the sign-in, which is revoked.
    await harness.emulator.sandbox("PATCH", `/ehr/${ORG_A_ID}/providers/${providerId}`, { active: false });
    harness.advanceClocks(5 * 60);
    expect((await laptop.user.api("/api/session")).status).toBe(401);
    await endsWithinASecond(reconnected);
    expect((await laptop.user.api("/api/events")).status).toBe(401);
  });
});
