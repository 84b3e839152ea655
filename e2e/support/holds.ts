import { ORG_A, ORG_B, appUrl, sandbox, sandboxUsers } from "./sandbox.ts";

// Holds live in the BFF's store and outlast a test (a worker's BFF serves
// every test it runs), so each test ends by releasing whatever holds any
// sandbox user still has, the way a user would: through the BFF, with a
// host token for that user.

interface HeldSlots {
  holds: { id: string }[];
}

async function appCall<T>(method: string, path: string, organizationId: string, userId: string): Promise<T> {
  const { token } = await sandbox<{ token: string }>("POST", "/host-token", { organizationId, userId });
  const response = await fetch(`${appUrl()}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** This user's active holds, as GET /api/holds lists them. */
export async function holdsOf(organizationId: string, userId: string): Promise<HeldSlots["holds"]> {
  return (await appCall<HeldSlots>("GET", "/api/holds", organizationId, userId)).holds;
}

export async function releaseEveryHold(): Promise<void> {
  // A test may leave a fault armed (503s, 429s): the release must reach the service.
  await sandbox("DELETE", "/faults");
  for (const organizationId of [ORG_A, ORG_B]) {
    const users = await sandboxUsers(organizationId);
    await Promise.all(
      users.map(async (user) => {
        for (const held of await holdsOf(organizationId, user.id)) {
          await appCall("DELETE", `/api/holds/${held.id}`, organizationId, user.id);
        }
      }),
    );
  }
}
