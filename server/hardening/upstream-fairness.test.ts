import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { appErrorBody } from "#contract/app-api/errors.ts";
import { ORG_A_ID, ORG_B_ID } from "../../emulator/world/identities.ts";
import type { BffConfig } from "../env.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";

// ADR 0017, through the real BFF and the emulator: one organization's
// users hammering distinct (uncached) slot searches no longer cut another
// organization off the service (it got `503 rate_limited`, "try again in
// 48 s", though the service had served it 4 requests), and one user cannot
// use up the organization's share (429 with Retry-After past the per-user
// limit; answers from the cache are free).

let store: Store;
let harness: BffHarness | null = null;

beforeAll(async () => {
  store = await createStore();
}, 60_000);

afterAll(async () => {
  await store.close();
});

afterEach(async () => {
  await harness?.close();
  harness = null;
});

/** A BFF of its own (its own limiter and cache) on the file's store. */
async function start(configOverrides: Partial<BffConfig>, clinicOptions?: NonNullable<Parameters<typeof createBffHarness>[1]>["clinicOptions"]): Promise<BffHarness> {
  harness = await createBffHarness(store, { configOverrides, clinicOptions });
  return harness;
}

/** A slot search of `organizationId` over one day, `dayOffset` days from tomorrow: each offset is a distinct read the cache has not seen. */
function slotSearch(h: BffHarness, organizationId: string, dayOffset: number): string {
  const org = h.emulator.emulator.state.org(organizationId);
  const facility = org?.ehr.facilities.find((candidate) => candidate.isVisible);
  const type = org?.ehr.appointmentTypes[0];
  if (!facility || !type) throw new Error(`no facility or appointment type in ${organizationId}`);
  const day = new Date(h.now() + (1 + dayOffset) * 86_400_000).toISOString().slice(0, 10);
  return `/api/slots?${new URLSearchParams({ appointmentTypeId: type.id, facilityIds: facility.id, startDate: day, endDate: day }).toString()}`;
}

const slotReadsUpstream = (h: BffHarness) => h.upstreamRequests.filter((line) => line.includes("/v2/schedule/slots")).length;

describe("one organization hammering the service", () => {
  it("org A's users send 60 distinct slot searches at once on a 40-per-minute budget; org B's ordinary search still gets its answer", async () => {
    // A budget of 40 per 60 s (4 kept for organizations that have sent nothing).
    const h = await start({}, { limiter: { scope: "key", limit: 40 } });
    const users = ["Physician", "Front Desk", "Scheduler"].map((role) => h.userWithRole(role, ORG_A_ID));
    const tokens = await Promise.all(users.map((userId) => h.hostToken({ organizationId: ORG_A_ID, userId })));
    const hammering = await Promise.all(tokens.flatMap((token, user) => Array.from({ length: 20 }, (_, index) => h.api(slotSearch(h, ORG_A_ID, user * 20 + index), { token }))));
    const answer = await h.api(slotSearch(h, ORG_B_ID, 0), { token: await h.hostToken({ organizationId: ORG_B_ID, userId: h.userWithRole("Front Desk", ORG_B_ID) }) });
    expect(answer.status).toBe(200);

    const statuses = hammering.map((hammer) => hammer.status);
    // A took everything but the reserve (4) and the cushion of the BFF's own
    // installations read at start-up (2: as much again as its one send); the
    // rest of its searches were refused.
    expect(statuses.filter((status) => status === 200)).toHaveLength(34);
    expect(statuses.filter((status) => status === 503)).toHaveLength(26);
    expect(slotReadsUpstream(h)).toBe(35);
  });
});

describe("the per-user limit (UPSTREAM_USER_LIMIT 5)", () => {
  it("a user's sixth search to reach the service in a minute gets 429 rate_limited with Retry-After; cached answers and colleagues are not affected; a minute later it works again", async () => {
    const h = await start({ upstreamUserLimit: 5 });
    const token = await h.hostToken({ organizationId: ORG_A_ID, userId: h.userWithRole("Front Desk", ORG_A_ID) });
    for (let index = 0; index < 5; index += 1) expect((await h.api(slotSearch(h, ORG_A_ID, index), { token })).status).toBe(200);

    const refused = await h.api(slotSearch(h, ORG_A_ID, 5), { token });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    const body = appErrorBody.parse(await refused.json());
    expect(body).toMatchObject({
      code: "rate_limited",
      message: "You have made more requests to the clinic's data service than Tandem allows one person (5 in 60 s); try again in 60 s",
      retry_after_seconds: 60,
    });
    expect(body.trace_id).toMatch(/^tdm_/);
    expect(Object.keys(body).sort()).toEqual(["code", "message", "retry_after_seconds", "trace_id"]);
    expect(slotReadsUpstream(h)).toBe(5);

    // The same search again is answered from the cache: it does not reach the service, so it is not counted.
    expect((await h.api(slotSearch(h, ORG_A_ID, 0), { token })).status).toBe(200);
    // A colleague in the same organization has a limit of their own.
    const colleague = await h.hostToken({ organizationId: ORG_A_ID, userId: h.userWithRole("Scheduler", ORG_A_ID) });
    expect((await h.api(slotSearch(h, ORG_A_ID, 5), { token: colleague })).status).toBe(200);
    expect(slotReadsUpstream(h)).toBe(6);

    h.advanceClocks(60);
    const fresh = await h.hostToken({ organizationId: ORG_A_ID, userId: h.userWithRole("Front Desk", ORG_A_ID) });
    expect((await h.api(slotSearch(h, ORG_A_ID, 6), { token: fresh })).status).toBe(200);
  });
});
