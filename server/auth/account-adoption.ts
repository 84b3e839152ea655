import type { Logger } from "../logger.ts";
import type { AccountRowsRepository } from "../store/store.ts";
import type { HostSession } from "./host-token-verifier.ts";

// Rows kept under an account before person keys (ADR 0024) become the
// person's the first time this process sees the account acting as them:
// the session's verified organization, account and person key. Later
// requests of the same account cost nothing. A failure is logged and tried
// again on the account's next request; the request itself goes on (its own
// store calls say whether the store can answer).

/** Accounts remembered as done before the memory starts over (a start-over only means one more, empty, move each). */
const MAX_REMEMBERED = 10_000;

export type AccountAdoption = (session: Pick<HostSession, "organizationId" | "accountId" | "userId">, logger: Logger) => Promise<void>;

export function createAccountAdoption(accountRows: Pick<AccountRowsRepository, "adopt">): AccountAdoption {
  const done = new Set<string>();
  const running = new Map<string, Promise<void>>();
  return async ({ organizationId, accountId, userId }, logger) => {
    const key = JSON.stringify([organizationId, accountId, userId]);
    if (done.has(key)) return;
    let run = running.get(key);
    if (run === undefined) {
      run = accountRows
        .adopt(organizationId, accountId, userId)
        .then((moved) => {
          if (done.size >= MAX_REMEMBERED) done.clear();
          done.add(key);
          if (moved.holds + moved.drafts + moved.views > 0) logger.info({ organizationId, moved }, "rows kept under the account before person keys are now the person's (ADR 0024)");
        })
        .catch((error: unknown) => logger.warn({ err: error }, "moving the account's rows to its person failed; tried again on its next request"))
        .finally(() => running.delete(key));
      running.set(key, run);
    }
    await run;
  };
}
