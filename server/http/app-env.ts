import type { HostSession } from "../auth/host-token-verifier.ts";
import type { StoredInstallation } from "../store/store.ts";
import type { Logger } from "../logger.ts";

/** Hono context variables of the BFF. `session` and `installation` are set by the host-session middleware on every /api route. */
export interface AppEnv {
  Variables: {
    traceId: string;
    logger: Logger;
    session: HostSession;
    installation: StoredInstallation;
    grantedScopes: ReadonlySet<string>;
    /** The `code` of the error body, once the error handler has answered with one. */
    errorCode: string | undefined;
    /** Set when the answer is the SPA's page: the nonce its CSP allows styles with (static/page-nonce.ts). */
    pageNonce: string | undefined;
  };
}
