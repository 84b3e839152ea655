import { ORG_A, ORG_B, callApp, sandbox, sandboxUsers } from "./sandbox.ts";

// Holds live in the BFF's store and outlast a test (a worker's BFF serves
// every test it runs), so each test ends by releasing whatever holds any
// sandbox user still has, the way a user would: through the BFF, with a
// host token for that user.

interface HeldSlots {
  holds: { id: string; patientId: string | null }[];
}

/** This user's active holds, as GET /api/holds lists them. */
export async function holdsOf(organizationId: string, userId: string): Promise<HeldSlots["holds"]> {
  return ((await callApp("GET", "/api/holds", { organizationId, userId })) as HeldSlots).holds;
}

export async function releaseEveryHold(): Promise<void> {
  // A test may leave a fault armed (503s, 429s): the release must reach the service.
  await sandbox("DELETE", "/faults");
  for (const organizationId of [ORG_A, ORG_B]) {
    const users = await sandboxUsers(organizationId);
    await Promise.all(
      users.map(async (user) => {
        for (const held of await holdsOf(organizationId, user.id)) {
          await callApp("DELETE", `/api/holds/${held.id}`, { organizationId, userId: user.id });
        }
      }),
    );
  }
}
