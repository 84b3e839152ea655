import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { parseTraceparent } from "#contract/app-api/trace-context.ts";
import { AnswerForPreviousIdentity, ApiError, callBff, fetchAppConfigOnceAnswered, setApiBridge } from "./bff-client.ts";
import { switchCacheIdentity } from "./cache-identity.ts";
import { checkSlot } from "./slots-queries.ts";
import { standaloneLink } from "../testing/fake-bff.ts";

// docs/operations.md "Following one request: trace ids": every call to the BFF starts a trace of its own, and an
// error the SPA makes up itself names that trace, as the BFF's errors do.


function recordCalls(answer: () => Response) {
  const headers: Headers[] = [];
  vi.stubGlobal("fetch", (_input: string, init: RequestInit) => {
    headers.push(new Headers(init.headers));
    return Promise.resolve(answer());
  });
  return headers;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  setApiBridge(null);
  switchCacheIdentity(new QueryClient(), null);
});

describe("callBff", () => {
  it("sends a valid, new traceparent with each call", async () => {
    setApiBridge(standaloneLink);
    const sent = recordCalls(() => Response.json({ ok: true }));
    await callBff("/api/session", z.object({ ok: z.boolean() }));
    await callBff("/api/session", z.object({ ok: z.boolean() }));
    const traces = sent.map((headers) => parseTraceparent(headers.get("traceparent"))?.traceId);
    expect(traces).toHaveLength(2);
    expect(traces[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(traces[1]).toMatch(/^[0-9a-f]{32}$/);
    expect(traces[0]).not.toBe(traces[1]);
  });

  it("names the call's trace in an error the BFF did not explain", async () => {
    setApiBridge(standaloneLink);
    const sent = recordCalls(() => new Response("bad gateway", { status: 502 }));
    const error = await callBff("/api/session", z.object({ ok: z.boolean() })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    const traceId = parseTraceparent(sent[0]?.get("traceparent"))?.traceId;
    expect(error instanceof ApiError && error.body.trace_id).toBe(`tdm_${traceId}`);
  });

  it("tells a standalone sign-in it ended when the BFF answers 401 (signed out elsewhere, revoked), and not on other refusals", async () => {
    const ended = vi.fn();
    setApiBridge({ ...standaloneLink, signInEnded: ended });
    recordCalls(() => Response.json({ code: "forbidden", message: "no", trace_id: "t" }, { status: 403 }));
    await callBff("/api/session", z.object({ ok: z.boolean() })).catch(() => undefined);
    expect(ended).not.toHaveBeenCalled();
    recordCalls(() => Response.json({ code: "invalid_token", message: "Your sign-in is no longer valid: sign in again", trace_id: "t" }, { status: 401 }));
    const error = await callBff("/api/session", z.object({ ok: z.boolean() })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it("sends the slot check (a read made as POST) with the token held, asking the host for no fresh one", async () => {
    const writeToken = vi.fn(() => Promise.resolve("fresh-write-token"));
    setApiBridge({ ...standaloneLink, mode: "embedded", token: () => Promise.resolve("token-held"), writeToken });
    const meta = { sourceSyncedAt: "2026-12-01T14:00:00.000Z", sourceKind: "ehr_kind_a", maxStalenessSeconds: 0, strongConsistency: true, strategy: "ehr_live", completeness: "complete", generatedAt: "2026-12-01T14:00:00.000Z" };
    const sent = recordCalls(() => Response.json({ available: false, slot: null, alternatives: [], meta }));
    const selection = { providerId: "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", facilityId: "fac_11111111111111111111111111111111", startsAt: "2026-12-01T10:00:00-05:00", endsAt: "2026-12-01T10:20:00-05:00", appointmentTypeId: "atp_dddddddddddddddddddddddddddddddd", isNewPatient: false };
    expect(await checkSlot(selection)).toMatchObject({ available: false });
    expect(writeToken).not.toHaveBeenCalled();
    expect(sent.map((headers) => headers.get("authorization"))).toEqual(["Bearer token-held"]);
  });

  it("drops an answer asked for as the previous organization or user (ADR 0025): it reaches neither the caller nor the cache", async () => {
    setApiBridge(standaloneLink);
    const client = new QueryClient();
    switchCacheIdentity(client, { organizationId: "org_a", userId: "alice" });
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal("fetch", () => new Promise<Response>((resolve) => (answer = resolve)));
    const asked = callBff("/api/session", z.object({ user: z.string() })).catch((caught: unknown) => caught);
    await Promise.resolve();
    switchCacheIdentity(client, { organizationId: "org_b", userId: "bob" });
    answer(Response.json({ user: "alice" }));
    expect(await asked).toBeInstanceOf(AnswerForPreviousIdentity);
  });
});

describe("fetchAppConfigOnceAnswered", () => {
  it("asks again on Tandem's backoff while its server is down, telling of each failure, and gives the configuration once it answers", async () => {
    vi.useFakeTimers();
    const answers: (() => Promise<Response>)[] = [() => Promise.reject(new TypeError("Failed to fetch")), () => Promise.resolve(new Response("Bad gateway", { status: 502 })), () => Promise.resolve(Response.json({ allowedHostOrigins: ["http://127.0.0.1:4010"], slug: "tandem" }))];
    const asked: number[] = [];
    vi.stubGlobal("fetch", () => {
      asked.push(Date.now());
      return answers.shift()?.() ?? Promise.reject(new Error("no answer left"));
    });
    let waiting = 0;
    const config = fetchAppConfigOnceAnswered(
      () => (waiting += 1),
      () => true,
    );
    await vi.advanceTimersByTimeAsync(999);
    expect(asked).toHaveLength(1);
    expect(waiting).toBe(1);
    // 1 s after the first failure, 2 s after the second.
    await vi.advanceTimersByTimeAsync(1 + 2_000);
    expect(await config).toEqual({ allowedHostOrigins: ["http://127.0.0.1:4010"], slug: "tandem" });
    expect(asked.map((at) => at - (asked[0] ?? 0))).toEqual([0, 1_000, 3_000]);
    expect(waiting).toBe(2);
  });

  it("stops with the failure once the app no longer wants it (the frame left)", async () => {
    vi.stubGlobal("fetch", () => Promise.reject(new TypeError("Failed to fetch")));
    await expect(
      fetchAppConfigOnceAnswered(
        () => undefined,
        () => false,
      ),
    ).rejects.toThrow("Failed to fetch");
  });
});
