import { callApp, ORG_A, ORG_B, sandboxUsers } from "./sandbox.ts";

// Each user's last slot search lives in the worker's BFF store, which outlives
// a test (issue 36 item 8): forgotten after each one (fixtures.ts), so every
// test's slot finder opens on the defaults unless it searched itself.

/** Forgets the last slot search of every user of both organizations. */
export async function forgetEveryLastSlotSearch(): Promise<void> {
  for (const organizationId of [ORG_A, ORG_B]) {
    const users = await sandboxUsers(organizationId);
    await Promise.all(users.map((user) => callApp("DELETE", "/api/slots/last-search", { organizationId, userId: user.id })));
  }
}

/** Keeps `search` as the user's last slot search, as the slot finder would after a search. */
export async function keepLastSlotSearch(organizationId: string, userId: string, search: Record<string, unknown>): Promise<void> {
  await callApp("PUT", "/api/slots/last-search", { organizationId, userId }, { search });
}
