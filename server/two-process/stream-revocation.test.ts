import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { session as sessionSchema } from "#contract/app-api/session.ts";
import { findSingleOrgAccount } from "../../emulator/oauth/accounts.ts";
import { ORG_A_ID } from "../../emulator/world/identities.ts";
import type { Bff } from "../app.ts";
import { signInStandalone } from "../testing/standalone-sign-in.ts";
import { createTwoBffCluster, type TwoBffCluster } from "./testing/two-bff-cluster.ts";

// Issue 34 item 3 across processes (ADR 0009): two BFFs on one PostgreSQL
// schema. A session signed out, or a user's access changed, on one process,
// or an uninstall one process learns, ends the streams the other process
// holds open, within a second: the revocation travels over the live-event
// bus (LISTEN/NOTIFY). Needs DATABASE_URL.

const databaseUrl = process.env.DATABASE_URL;

interface WatchedStream {
  ended(): boolean;
  cancel(): Promise<void>;
}

async function openStream(bff: Bff, headers: Record<string, string>): Promise<WatchedStream> {
  const response = await bff.app.request("/api/events", { headers });
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

describe.skipIf(!databaseUrl)("live streams end on every process sharing the store", () => {
  let cluster: TwoBffCluster;

  beforeEach(async () => {
    cluster = await createTwoBffCluster(databaseUrl ?? "");
  }, 60_000);

  afterEach(async () => {
    await cluster.close();
  });

  const signIn = (on: Bff, role = "Front Desk") => signInStandalone({ bff: on, emulator: cluster.emulator }, findSingleOrgAccount(cluster.emulator.emulator.state, ORG_A_ID, role).id, ORG_A_ID);

  it("a sign-out on A ends the session's stream on B; the same user's other session keeps its stream", async () => {
    const [a, b] = cluster.processes;
    const laptop = await signIn(a.bff);
    const phone = await signIn(a.bff);
    const laptopOnB = await openStream(b.bff, { cookie: laptop.cookieHeader() });
    const phoneOnB = await openStream(b.bff, { cookie: phone.cookieHeader() });
    expect((await laptop.api("/auth/logout", { method: "POST" })).status).toBe(200);
    await endsWithinASecond(laptopOnB);
    expect(phoneOnB.ended()).toBe(false);
    await phoneOnB.cancel();
  });

  it("sign out everywhere else on A ends the other sessions' streams on B, not the caller's", async () => {
    const [a, b] = cluster.processes;
    const laptop = await signIn(a.bff);
    const phone = await signIn(a.bff);
    const laptopOnB = await openStream(b.bff, { cookie: laptop.cookieHeader() });
    const phoneOnB = await openStream(b.bff, { cookie: phone.cookieHeader() });
    expect(await (await laptop.api("/auth/sessions", { method: "DELETE" })).json()).toEqual({ revoked: 1 });
    await endsWithinASecond(phoneOnB);
    expect(laptopOnB.ended()).toBe(false);
    await laptopOnB.cancel();
  });

  it("a role change A's re-check finds ends the user's stream on B", async () => {
    const [a, b] = cluster.processes;
    const user = await signIn(a.bff, "Physician");
    const providerId = z.parse(sessionSchema, await (await user.api("/api/session")).json()).user.id;
    const onB = await openStream(b.bff, { cookie: user.cookieHeader() });
    await cluster.emulator.sandbox("PATCH", `/ehr/${ORG_A_ID}/providers/${providerId}`, { roles: ["Front Desk"] });
    cluster.advanceBffClock(5 * 60 * 1000);
    expect((await user.api("/api/session")).status).toBe(200);
    await endsWithinASecond(onB);
  });

  it("an uninstall A's registry learns from the installations list ends the organization's streams on B", async () => {
    const [a, b] = cluster.processes;
    // No webhook reaches either process: A learns it from the list alone.
    cluster.emulator.emulator.dispatcher.configure(null);
    const onB = await openStream(b.bff, { authorization: `Bearer ${await cluster.hostToken()}` });
    await cluster.emulator.sandbox("POST", `/installations/${ORG_A_ID}`, { status: "uninstalled" });
    await a.bff.installations.refresh();
    await endsWithinASecond(onB);
  });
});
