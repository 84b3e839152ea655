import type { Context } from "hono";
import type { AppEnv } from "../http/app-env.ts";
import type { AuditEntry, AuditTrail } from "../store/store.ts";
import { StoreUnavailableError } from "../store/store-unavailable.ts";

export interface AccessAudit {
  /**
   * A PHI read: resolves once its record is committed, so the caller answers after it.
   * Rejects when it cannot be written (StoreUnavailableError: 503 store_unavailable), and the read is refused.
   */
  read(c: Context<AppEnv>, resourceType: string, resourceId: string): Promise<void>;
  /**
   * A write or deletion already carried out: its record is committed before the answer too, but a record
   * that cannot be written does not turn it into a 503 (the user would be told it was not done and retry it).
   * The entry goes to the log instead, which is then its only trail.
   */
  changed(c: Context<AppEnv>, action: Exclude<AuditEntry["action"], "read">, resourceType: string, resourceId: string): Promise<void>;
}

export function accessAudit(audit: Pick<AuditTrail, "record">, now: () => number): AccessAudit {
  const entryOf = (c: Context<AppEnv>, action: AuditEntry["action"], resourceType: string, resourceId: string): AuditEntry => {
    const session = c.get("session");
    return { at: now(), organizationId: session.organizationId, userId: session.userId, accountId: session.accountId, action, resourceType, resourceId, traceId: c.get("traceId") };
  };
  return {
    read: (c, resourceType, resourceId) => audit.record(entryOf(c, "read", resourceType, resourceId)),
    async changed(c, action, resourceType, resourceId) {
      const entry = entryOf(c, action, resourceType, resourceId);
      try {
        await audit.record(entry);
      } catch (error) {
        if (!(error instanceof StoreUnavailableError)) throw error;
        // Ids only, no PHI: the log line stands in for the row.
        c.get("logger").error({ storeReason: error.reason, auditEntry: entry }, "the audit record of a write could not be stored; it is logged instead");
      }
    },
  };
}
