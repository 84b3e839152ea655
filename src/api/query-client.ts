import { QueryClient, type Query } from "@tanstack/react-query";
import { APP_ERROR_CODES } from "#contract/app-api/errors.ts";
import { ApiError } from "./bff-client.ts";
import { failingSystemOf } from "./failing-system.ts";

// The app's one query client and its rules for reads that failed.
// - Retried at once (twice) only where that may help: a 4xx is an answer, and
//   a rate limit says when to try again (the BFF has already waited once).
// - A read Tandem's own server failed (its database, a restart, not reached)
//   is read again every TANDEM_TROUBLE_REREAD_MS while anything shows it, so
//   its failure goes when the cause does: the user is told to try again in a
//   few seconds, and no view should keep saying so after. The service's
//   failures wait for Try again instead: its budget is shared by every user
//   of the organization.

export const TANDEM_TROUBLE_REREAD_MS = 10_000;

/** How long before a failed read is read again by itself; false while it answers, or failed otherwise than by Tandem's server. */
export function rereadAfterTandemTrouble(query: Pick<Query, "state">): number | false {
  return query.state.status === "error" && failingSystemOf(query.state.error) === "tandem" ? TANDEM_TROUBLE_REREAD_MS : false;
}

export function createAppQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) => !(error instanceof ApiError && (error.status < 500 || error.body.code === APP_ERROR_CODES.rateLimited)) && failureCount < 2,
        refetchInterval: rereadAfterTandemTrouble,
        refetchOnWindowFocus: false,
      },
    },
  });
}
