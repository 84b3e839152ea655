import { describe, expect, it } from "vitest";
import { OpenStreams } from "./open-streams.ts";
import type { LiveStreamOwner } from "./stream-revocation.ts";

// The open live-event streams: a shutdown ends them each with its reconnection
// hint; a revocation ends those it names.

const ORG_A = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
const ORG_B = "8c4e2d19-7a36-4b5f-a0e1-9d8c7b6a5f42";
const owner = (overrides: Partial<LiveStreamOwner> = {}): LiveStreamOwner => ({ organizationId: ORG_A, userId: "user-1", sessionId: null, ...overrides });

describe("OpenStreams", () => {
  it("ends every open stream with a hint in [base, 2 × base), spread by the random source; a removed stream is left alone", async () => {
    const randoms = [0, 0.5, 0.999];
    const streams = new OpenStreams(() => randoms.shift() ?? 0);
    const hints: (number | null)[] = [];
    const remove = streams.add(owner(), () => Promise.resolve(void hints.push(-1)));
    for (let i = 0; i < 3; i += 1) streams.add(owner(), (retryMs) => Promise.resolve(void hints.push(retryMs)));
    remove();
    expect(streams.size).toBe(3);
    await streams.closeAll(1_000);
    expect(hints).toEqual([1_000, 1_500, 1_999]);
    expect(streams.size).toBe(0);
  });

  it("ends a stream opened while closing at once", async () => {
    const streams = new OpenStreams(() => 0);
    await streams.closeAll(1_000);
    const hints: (number | null)[] = [];
    streams.add(owner(), (retryMs) => Promise.resolve(void hints.push(retryMs)));
    expect(hints).toEqual([1_000]);
    expect(streams.size).toBe(0);
  });

  it("waits for every stream, and a stream that fails to end does not stop the others", async () => {
    const streams = new OpenStreams(() => 0);
    const ended: string[] = [];
    streams.add(owner(), () => Promise.reject(new Error("the client is gone")));
    streams.add(owner(), () => Promise.resolve(void ended.push("second")));
    await streams.closeAll(1_000);
    expect(ended).toEqual(["second"]);
  });

  it("ends, without a hint, the streams of a revoked session, of a user's other sessions or all of them, of an organization; and no others", () => {
    const streams = new OpenStreams(() => 0);
    const ended: string[] = [];
    const open = (name: string, who: LiveStreamOwner) => streams.add(who, (retryMs) => Promise.resolve(void ended.push(`${name}${retryMs === null ? "" : " (hint)"}`)));
    open("laptop", owner({ sessionId: "s-laptop" }));
    open("phone", owner({ sessionId: "s-phone" }));
    open("tablet", owner({ sessionId: "s-tablet" }));
    open("embedded", owner());
    open("colleague", owner({ userId: "user-2", sessionId: "s-colleague" }));
    open("other clinic", owner({ organizationId: ORG_B, userId: "user-3" }));

    expect(streams.revoke({ scope: "session", sessionId: "s-phone" })).toBe(1);
    expect(ended).toEqual(["phone"]);
    // "Sign out everywhere else" from the laptop: a host token's stream is the EHR's session, not one of these.
    expect(streams.revoke({ scope: "user", userId: "user-1", exceptSessionId: "s-laptop" })).toBe(1);
    expect(ended).toEqual(["phone", "tablet"]);
    expect(streams.revoke({ scope: "user", userId: "user-1", exceptSessionId: null })).toBe(1);
    expect(ended).toEqual(["phone", "tablet", "laptop"]);
    expect(streams.revoke({ scope: "organization", organizationId: ORG_A.toUpperCase() })).toBe(2);
    expect(ended).toEqual(["phone", "tablet", "laptop", "embedded", "colleague"]);
    expect(streams.size).toBe(1);
    expect(streams.revoke({ scope: "session", sessionId: "s-phone" })).toBe(0);
  });
});
