import { describe, expect, it } from "vitest";
import { createLogger } from "../logger.ts";
import type { AdoptedRows } from "../store/store.ts";
import { createAccountAdoption } from "./account-adoption.ts";

// An account's rows from before person keys are moved the first time a
// process sees the account acting as its person, once; a failure is tried
// again on the next request, and never fails the request itself.

const logger = createLogger({ level: "silent", secrets: [] });
const session = { organizationId: "org-a", accountId: "sub-1", userId: "provider:p-1" };
const nothing: AdoptedRows = { holds: 0, drafts: 0, views: 0 };

describe("createAccountAdoption", () => {
  it("moves an account's rows once per organization and person, requests at the same time sharing the one move", async () => {
    const calls: string[] = [];
    const adopt = createAccountAdoption({
      adopt: async (organizationId, accountId, userId) => {
        calls.push(`${organizationId} ${accountId} ${userId}`);
        await Promise.resolve();
        return nothing;
      },
    });
    await Promise.all([adopt(session, logger), adopt(session, logger)]);
    await adopt(session, logger);
    await adopt({ ...session, organizationId: "org-b", userId: "provider:p-9" }, logger);
    expect(calls).toEqual(["org-a sub-1 provider:p-1", "org-b sub-1 provider:p-9"]);
  });

  it("lets the request go on when the move fails, and tries again on the next one", async () => {
    let failing = true;
    let calls = 0;
    const adopt = createAccountAdoption({
      adopt: () => {
        calls += 1;
        return failing ? Promise.reject(new Error("store down")) : Promise.resolve(nothing);
      },
    });
    await expect(adopt(session, logger)).resolves.toBeUndefined();
    failing = false;
    await adopt(session, logger);
    await adopt(session, logger);
    expect(calls).toBe(2);
  });
});
