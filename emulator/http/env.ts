import type { DataKey } from "../world/identities.ts";
import type { OrgState } from "../service/service-state.ts";

/** Hono context variables of the emulated service. */
export interface ServiceEnv {
  Variables: {
    traceId: string;
    dataKey: DataKey;
    org: OrgState;
  };
}
