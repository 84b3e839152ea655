import { describe, expect, it } from "vitest";
import { createTestEmulator } from "../../testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID } from "../../world/identities.ts";
import { allLines, COMPOSITE_LINE_ID, remitsOf, required, UUID } from "./testing/billing-helpers.ts";

// The sandbox's remit controls: GET /_sandbox/ehr/{org}/era-remits and
// POST /_sandbox/ehr/{org}/era-remits/{id}/post (DESIGN.md; seed 000
// transition "ERA remit": lines hard-deleted and re-inserted, no event).

describe("GET /_sandbox/ehr/{organizationId}/era-remits", () => {
  const test = createTestEmulator();

  it("lists remits newest first with their status, ERA claims and line ids; filters by status", async () => {
    const { remits } = await remitsOf(test);
    expect(remits.length).toBeGreaterThan(10);
    const received = remits.map((remit) => remit.receivedAt);
    expect(received).toEqual([...received].sort().reverse());
    const unposted = await remitsOf(test, ORG_A_ID, "unposted");
    expect(unposted.remits.length).toBeGreaterThan(0);
    for (const remit of unposted.remits) {
      expect(remit).toMatchObject({ status: "unposted", postedAt: null });
      for (const id of remit.eraClaims.flatMap((eraClaim) => eraClaim.lineIds)) expect(id).toMatch(COMPOSITE_LINE_ID);
    }
    const posted = await remitsOf(test, ORG_A_ID, "posted");
    expect(posted.remits.length + unposted.remits.length).toBe(remits.length);
    for (const remit of posted.remits) for (const id of remit.eraClaims.flatMap((eraClaim) => eraClaim.lineIds)) expect(id).toMatch(UUID);
    expect((await remitsOf(test, ORG_B_ID, "unposted")).remits.length).toBeGreaterThan(0);
  });

  it("refuses an unknown organization (404) and an unknown status (400)", async () => {
    expect((await test.sandbox("GET", "/ehr/00000000-0000-4000-8000-000000000000/era-remits")).status).toBe(404);
    const bad = await test.sandbox("GET", `/ehr/${ORG_A_ID}/era-remits?status=pending`);
    expect(bad).toEqual({ status: 400, body: { code: "bad_request", message: "status: must be posted or unposted" } });
  });
});

describe("POST /_sandbox/ehr/{organizationId}/era-remits/{id}/post", () => {
  it("re-keys the lines and the ERA claims, stamps them now, and answers the mapping", async () => {
    const recorded: string[] = [];
    const test = createTestEmulator({
      fetch: (input) => {
        recorded.push(input instanceof Request ? input.url : String(input));
        return Promise.resolve(new Response(null, { status: 204 }));
      },
    });
    await test.sandbox("POST", "/webhooks", { url: "http://127.0.0.1:9/hooks", headerStyle: "standard" });
    const [remit] = (await remitsOf(test, ORG_A_ID, "unposted")).remits;
    const target = required(remit, "an unposted remit");
    const cursor = new Date(test.emulator.clock.now()).toISOString();
    const total = (await allLines(test)).length;
    test.emulator.clock.set({ advanceSeconds: 30 });
    const postedAt = new Date(test.emulator.clock.now()).toISOString();

    const response = await test.sandbox("POST", `/ehr/${ORG_A_ID}/era-remits/${target.id}/post`);
    expect(response.status).toBe(200);
    const body = response.body as { remitId: string; posted: boolean; postedAt: string; lines: { previousId: string; id: string; eraClaimId: string }[]; eraClaimIds: { previous: string[]; current: string[] } };
    expect(body).toMatchObject({ remitId: target.id, posted: true, postedAt });
    expect(body.lines.map((line) => line.previousId)).toEqual(target.eraClaims.flatMap((eraClaim) => eraClaim.lineIds));
    expect(body.eraClaimIds.previous).toEqual(target.eraClaims.map((eraClaim) => eraClaim.id));
    expect(body.eraClaimIds.current).toHaveLength(target.eraClaims.length);
    for (const id of [...body.lines.map((line) => line.id), ...body.eraClaimIds.current]) expect(id).toMatch(UUID);

    // The new rows: updatedAt now, so a cursor from before the post finds exactly them.
    const delta = await allLines(test, { updatedSince: cursor });
    expect(delta.map((line) => line.id).sort()).toEqual(body.lines.map((line) => line.id).sort());
    expect(delta.every((line) => line.updatedAt === postedAt)).toBe(true);
    for (const line of delta) expect(body.eraClaimIds.current).toContain(line.eraClaimId);
    // The old ids answer 404; nothing is left behind.
    for (const { previousId } of body.lines) expect((await test.call("GET /v1/era-service-lines/{id}", { params: { id: previousId } })).status).toBe(404);
    expect(await allLines(test)).toHaveLength(total);
    const listed = (await remitsOf(test)).remits.find((remit) => remit.id === target.id);
    expect(listed).toMatchObject({ status: "posted", postedAt });

    // No event: no webhook was sent for the post or a sync after it (the test event proves the receiver works).
    await test.sandbox("POST", "/sync", { organizationId: ORG_A_ID });
    await test.emulator.dispatcher.idle();
    expect(recorded).toEqual([]);
    await test.sandbox("POST", "/webhooks/test");
    await test.emulator.dispatcher.idle();
    expect(recorded).toHaveLength(1);

    // Posting it again is a conflict; an unknown remit is 404.
    const again = await test.sandbox("POST", `/ehr/${ORG_A_ID}/era-remits/${target.id}/post`);
    expect(again).toEqual({ status: 409, body: { code: "conflict", message: `remit ${target.id} is already posted` } });
    const unknown = await test.sandbox("POST", `/ehr/${ORG_A_ID}/era-remits/00000000-0000-4000-8000-000000000000/post`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: "not_found" });
    // A remit of another organization is unknown here.
    const orgB = required((await remitsOf(test, ORG_B_ID, "unposted")).remits[0], "an org B remit");
    expect((await test.sandbox("POST", `/ehr/${ORG_A_ID}/era-remits/${orgB.id}/post`)).status).toBe(404);
    test.emulator.close();
  });

  it("reset brings the remit back unposted with its composite ids", async () => {
    const test = createTestEmulator();
    const before = await remitsOf(test, ORG_B_ID);
    const remit = required(before.remits.find((candidate) => candidate.status === "unposted"), "an unposted remit");
    await test.sandbox("POST", `/ehr/${ORG_B_ID}/era-remits/${remit.id}/post`);
    expect((await remitsOf(test, ORG_B_ID)).remits.find((candidate) => candidate.id === remit.id)?.status).toBe("posted");
    await test.sandbox("POST", "/reset");
    expect(await remitsOf(test, ORG_B_ID)).toEqual(before);
    const line = required(remit.eraClaims[0]?.lineIds[0], "a line id");
    expect((await test.call("GET /v1/era-service-lines/{id}", { organizationId: ORG_B_ID, params: { id: line } })).status).toBe(200);
  });
});

describe("GET /v1/era-service-lines/{id}", () => {
  const test = createTestEmulator();

  it("answers one line with its adjustments; 400 for a malformed id, 404 for an unknown one", async () => {
    const [first] = (await test.get("GET /v1/era-service-lines", { query: { pageSize: 1 } })).eraServiceLines;
    const line = await test.get("GET /v1/era-service-lines/{id}", { params: { id: required(first, "a line").id } });
    expect(line).toEqual(first);
    expect(line.adjustments?.length).toBeGreaterThan(0);
    expect((await test.call("GET /v1/era-service-lines/{id}", { params: { id: "not a line" } })).error?.message).toBe("id must be a valid ERA service line id");
    expect((await test.call("GET /v1/era-service-lines/{id}", { params: { id: "00000000-0000-4000-8000-000000000000" } })).status).toBe(404);
  });

  it("needs read:eras on the list and on one line", async () => {
    // Every data key of the sandbox has read:eras; an installation without it is the only way to a 403.
    await test.sandbox("POST", `/installations/${ORG_B_ID}`, { status: "active", grantedPermissions: ["read:claims"] });
    const list = await test.call("GET /v1/era-service-lines", { organizationId: ORG_B_ID });
    expect(list.status).toBe(403);
    expect(list.error?.message).toMatch(/read:eras.*installation did not grant it/);
    const one = await test.call("GET /v1/era-service-lines/{id}", { organizationId: ORG_B_ID, params: { id: "00000000-0000-4000-8000-000000000000" } });
    expect(one.status).toBe(403);
  });

  it.each([
    [{ matched: "yes" }, /^matched: must be true or false$/],
    [{ billId: "B-104016" }, /^billId: /],
    [{ dateFrom: "2026-11-20", dateTo: "2026-11-01" }, /^dateTo: must not be before dateFrom$/],
    [{ pageSize: 0 }, /^pageSize: must be at least 1$/],
  ])("answers 400 naming the parameter for %o", async (query, message) => {
    const result = await test.call("GET /v1/era-service-lines", { query });
    expect(result.status).toBe(400);
    expect(result.error?.message).toMatch(message);
  });
});
