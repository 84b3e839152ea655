import { afterEach, describe, expect, it, vi } from "vitest";
import type { AppToHostMessage } from "#contract/bridge/messages.ts";
import { BookingDeclined, HostBridge } from "./host-bridge.ts";
import { detectEmbedding, isAllowedOrigin } from "./parent-origin.ts";

// The bridge's rules without a browser: a stand-in window whose parent records
// what the app posts and can answer from any origin or source.

const HOST = "http://127.0.0.1:4010";
const token = (exp = Math.floor(Date.now() / 1000) + 300) => `eyJhbGciOiJFUzI1NiJ9.${btoa(JSON.stringify({ exp })).replace(/=+$/, "")}.sig`;

function fakeWindow() {
  const target = new EventTarget();
  const posted: { message: AppToHostMessage; origin: string }[] = [];
  const parent = { postMessage: (message: AppToHostMessage, origin: string) => posted.push({ message, origin }) };
  const win = Object.assign(target, { parent });
  const deliver = (data: unknown, options: { origin?: string; source?: unknown } = {}) => {
    const event = new MessageEvent("message", { data, origin: options.origin ?? HOST });
    Object.defineProperty(event, "source", { value: options.source === undefined ? parent : options.source });
    target.dispatchEvent(event);
  };
  // The stand-in has only what the bridge uses.
  return { win: win as unknown as Window, posted, deliver };
}

/** A token the EHR minted at `iatMs` on its own clock, for its five minutes. */
const mintedAt = (iatMs: number) => {
  const iat = Math.floor(iatMs / 1000);
  return `eyJhbGciOiJFUzI1NiJ9.${btoa(JSON.stringify({ iat, exp: iat + 300 })).replace(/=+$/, "")}.sig`;
};

async function connected(firstToken = token()) {
  const fake = fakeWindow();
  const bridge = new HostBridge(fake.win, HOST);
  const ready = bridge.connect();
  const hello = fake.posted[0];
  if (hello?.message.type !== "tandem:ready") throw new Error("no ready message");
  const nonce = hello.message.nonce;
  fake.deliver({ type: "tandem:context", nonce, token: firstToken, context: { organizationName: "Riverside" } });
  await ready;
  return { ...fake, bridge, nonce };
}

describe("the host bridge", () => {
  it("posts tandem:ready with a nonce to the exact parent origin, never *", async () => {
    const { posted } = await connected();
    expect(posted[0]?.origin).toBe(HOST);
    expect(posted[0]?.message.type).toBe("tandem:ready");
  });

  it("accepts the context only from the parent, from the host origin, with its nonce", async () => {
    const { bridge, deliver, nonce } = await connected();
    const evil = { type: "tandem:context", nonce, token: token(), context: { organizationName: "Evil" } };
    deliver(evil, { origin: "http://evil.test" });
    deliver(evil, { source: {} });
    deliver({ ...evil, nonce: "f".repeat(48) });
    deliver({ ...evil, token: "not a jwt" });
    expect(bridge.current()?.context.organizationName).toBe("Riverside");
    deliver({ ...evil, context: { organizationName: "Harbourside" } });
    expect(bridge.current()?.context.organizationName).toBe("Harbourside");
  });

  it("asks for a fresh token and takes the host's answer", async () => {
    const { bridge, posted, deliver, nonce } = await connected();
    const pending = bridge.freshToken();
    const request = posted.at(-1)?.message;
    if (request?.type !== "tandem:token-request") throw new Error("no token request");
    const fresh = token(Math.floor(Date.now() / 1000) + 299);
    deliver({ type: "tandem:token", nonce, requestId: request.requestId, token: fresh });
    expect(await pending).toBe(fresh);
    expect(await bridge.token()).toBe(fresh);
  });

  it("gives two writes at once a token each, since a write spends its token", async () => {
    const { bridge, posted, deliver, nonce } = await connected();
    const first = bridge.writeToken();
    const second = bridge.writeToken();
    const requests = posted.slice(-2).map((entry) => entry.message);
    expect(requests.map((message) => message.type)).toEqual(["tandem:token-request", "tandem:token-request"]);
    const tokens = [token(Math.floor(Date.now() / 1000) + 298), token(Math.floor(Date.now() / 1000) + 297)];
    requests.forEach((message, index) => {
      if (message.type === "tandem:token-request") deliver({ type: "tandem:token", nonce, requestId: message.requestId, token: tokens[index] });
    });
    expect(await Promise.all([first, second])).toEqual(tokens);
  });

  it("gives the next write the token asked for ahead of it, once, and asks afresh after the host changed context", async () => {
    const { bridge, posted, deliver, nonce } = await connected();
    const tokenRequests = () => posted.map((entry) => entry.message).filter((message) => message.type === "tandem:token-request");
    const answer = (index: number, answered: string) => {
      const request = tokenRequests()[index];
      if (request?.type !== "tandem:token-request") throw new Error(`no token request ${index}`);
      deliver({ type: "tandem:token", nonce, requestId: request.requestId, token: answered });
    };
    bridge.askWriteTokenAhead(); // a slot's check starts: its hold follows
    bridge.askWriteTokenAhead(); // one on its way is enough
    expect(tokenRequests()).toHaveLength(1);
    const ahead = token(Math.floor(Date.now() / 1000) + 296);
    answer(0, ahead);
    expect(await bridge.writeToken()).toBe(ahead);
    expect(tokenRequests()).toHaveLength(1);
    // Spent by that write: the next asks the host.
    const next = bridge.writeToken();
    expect(tokenRequests()).toHaveLength(2);
    answer(1, token(Math.floor(Date.now() / 1000) + 295));
    await next;
    // Asked for ahead, then another user opened in the EHR: the write does not go with the previous one's token.
    bridge.askWriteTokenAhead();
    answer(2, token(Math.floor(Date.now() / 1000) + 294));
    deliver({ type: "tandem:context", nonce, token: token(), context: { organizationName: "Harbourside" } });
    const afterSwitch = bridge.writeToken();
    expect(tokenRequests()).toHaveLength(4);
    const theirs = token(Math.floor(Date.now() / 1000) + 293);
    answer(3, theirs);
    expect(await afterSwitch).toBe(theirs);
  });

  it("keeps a write token ready for a page being left, hands it out once, and asks for a newer one when it is nearly spent (issue 35 item 2)", async () => {
    const { bridge, posted, deliver, nonce } = await connected();
    expect(bridge.takeSpareWriteToken()).toBeNull();
    bridge.prepareSpareWriteToken();
    bridge.prepareSpareWriteToken(); // one request on its way is enough
    const requests = posted.filter((entry) => entry.message.type === "tandem:token-request");
    expect(requests).toHaveLength(1);
    const request = requests[0]?.message;
    if (request?.type !== "tandem:token-request") throw new Error("no token request");
    const spare = token(Math.floor(Date.now() / 1000) + 290);
    deliver({ type: "tandem:token", nonce, requestId: request.requestId, token: spare });
    await Promise.resolve();
    await Promise.resolve();
    // Kept aside: reads go on with the token they had.
    expect(await bridge.token()).not.toBe(spare);
    expect(bridge.takeSpareWriteToken()).toEqual({ token: spare });
    expect(bridge.takeSpareWriteToken()).toBeNull(); // a write spends it
    bridge.prepareSpareWriteToken();
    const next = posted.at(-1)?.message;
    if (next?.type !== "tandem:token-request") throw new Error("no second token request");
    const nearlySpent = token(Math.floor(Date.now() / 1000) + 20);
    deliver({ type: "tandem:token", nonce, requestId: next.requestId, token: nearlySpent });
    await Promise.resolve();
    await Promise.resolve();
    // 20 s left by this browser's clock: a newer one is asked for, and until it comes this one is still sent
    // (the BFF judges it; a browser clock unlike the EHR's would otherwise never send the text).
    for (let tick = 0; tick < 5; tick += 1) await Promise.resolve(); // the request's settling ends
    const asked = posted.length;
    bridge.prepareSpareWriteToken();
    expect(posted.slice(asked).map((entry) => entry.message.type)).toEqual(["tandem:token-request"]);
    expect(bridge.takeSpareWriteToken()).toEqual({ token: nearlySpent });
  });

  it("refreshes a token that is about to expire before using it", async () => {
    const fake = fakeWindow();
    const bridge = new HostBridge(fake.win, HOST);
    const ready = bridge.connect();
    const nonce = fake.posted[0]?.message.nonce ?? "";
    fake.deliver({ type: "tandem:context", nonce, token: token(Math.floor(Date.now() / 1000) + 10), context: {} });
    await ready;
    const pending = bridge.token();
    const request = fake.posted.at(-1)?.message;
    expect(request?.type).toBe("tandem:token-request");
    if (request?.type === "tandem:token-request") fake.deliver({ type: "tandem:token", nonce, requestId: request.requestId, token: token() });
    await expect(pending).resolves.toMatch(/\./);
    bridge.disconnect();
  });

  describe("on a workstation whose clock is minutes off the EHR's", () => {
    afterEach(() => {
      vi.useRealTimers();
    });
    const tokenRequests = (posted: { message: AppToHostMessage }[]) => posted.filter(({ message }) => message.type === "tandem:token-request").length;

    it("ahead: uses a new token for its five minutes and refreshes it a minute before they end, not every second", async () => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
      const minted = mintedAt(Date.now() - 7 * 60_000);
      const { bridge, posted } = await connected(minted);
      expect(await bridge.token()).toBe(minted);
      await vi.advanceTimersByTimeAsync(3 * 60_000);
      expect(tokenRequests(posted)).toBe(0);
      await vi.advanceTimersByTimeAsync(61_000);
      expect(tokenRequests(posted)).toBe(1);
    });

    it("behind: refreshes a token a minute before its five minutes end, not ten minutes later", async () => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
      const { posted } = await connected(mintedAt(Date.now() + 5 * 60_000));
      await vi.advanceTimersByTimeAsync(4 * 60_000 + 1_000);
      expect(tokenRequests(posted)).toBe(1);
    });
  });

  it("books through the host, with the EHR's reference when the host gives one, and reports a decline with its reason", async () => {
    const { bridge, posted, deliver, nonce } = await connected();
    const hold = { holdId: "h1", providerId: "prv_1", facilityId: "fac_1", startsAt: "2026-12-01T10:00:00-05:00", endsAt: "2026-12-01T10:20:00-05:00", appointmentTypeId: "atp_1" };
    const booked = bridge.book(hold);
    const first = posted.at(-1)?.message;
    if (first?.type !== "tandem:book") throw new Error("no book message");
    deliver({ type: "tandem:booked", nonce, requestId: first.requestId, appointmentId: "appt-1", reference: "EHR-1A2B3C4D" });
    expect(await booked).toEqual({ appointmentId: "appt-1", reference: "EHR-1A2B3C4D" });
    const declined = bridge.book(hold);
    const second = posted.at(-1)?.message;
    if (second?.type !== "tandem:book") throw new Error("no book message");
    deliver({ type: "tandem:book-declined", nonce, requestId: second.requestId, reason: "Pick a patient in the EHR first" });
    await expect(declined).rejects.toThrow(BookingDeclined);
  });
});

describe("the parent's origin", () => {
  it("is standalone outside a frame, and checked against the allowed origins", () => {
    const top = { parent: undefined as unknown, location: {}, document: { referrer: "" } };
    top.parent = top;
    expect(detectEmbedding(top as unknown as Window)).toEqual({ kind: "standalone" });
    const framed = { parent: {}, location: { ancestorOrigins: [HOST] }, document: { referrer: "" } };
    expect(detectEmbedding(framed as unknown as Window)).toEqual({ kind: "embedded", parentOrigin: HOST });
    const viaReferrer = { parent: {}, location: {}, document: { referrer: `${HOST}/_sandbox/host?x=1` } };
    expect(detectEmbedding(viaReferrer as unknown as Window)).toEqual({ kind: "embedded", parentOrigin: HOST });
    expect(isAllowedOrigin(HOST, [HOST])).toBe(true);
    expect(isAllowedOrigin("http://evil.test", [HOST])).toBe(false);
    expect(isAllowedOrigin(null, [HOST])).toBe(false);
  });
});
