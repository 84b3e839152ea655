import { useQueryClient, useQueryErrorResetBoundary } from "@tanstack/react-query";
import { useRouter, type ErrorComponentProps } from "@tanstack/react-router";
import { useEffect, useMemo } from "react";
import { failingSystemOf } from "#src/api/failing-system.ts";
import { TANDEM_TROUBLE_REREAD_MS } from "#src/api/query-client.ts";
import { Notice } from "../ui/notice.tsx";
import { ApiErrorNotice } from "./api-error-notice.tsx";
import { CODE_NOT_SENT, ReloadTandemButton } from "./lazy-part.tsx";

// A route's error view: TanStack Router's `errorComponent` where a route
// names it, and the router's `defaultErrorComponent` everywhere else, so no
// view ever falls through to the router's own "Something went wrong!" page
// with the app's header gone.
// - A read its view cannot do without failed, in its loader or as the view
//   waited for it (useSuspenseQuery): said as every view says a failed read
//   (the system that failed: Tandem's server, the clinic data service or the
//   EHR), with Try again, which loads the route again; where Tandem's server
//   failed, its reads are tried again by themselves, as the app's queries are
//   (src/api/query-client.ts), and the route loads once they answer.
// - The view's code not sent (Tandem's server restarting, or a newer Tandem
//   deployed): said so, with a reload.
// - Anything else is a fault in Tandem's own page: said so, in the view's
//   place, with a reload (text typed is kept from the keystroke, ADR 0008).

/** The view's own code did not arrive (a route's lazily loaded component), in each browser's words; TanStack Router has reloaded once already. */
const isViewCodeMissing = (error: unknown) => error instanceof Error && /^(Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed)/.test(error.message);

export function RouteErrorNotice({ error }: Pick<ErrorComponentProps, "error">) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const queryErrorResetBoundary = useQueryErrorResetBoundary();
  // The view's suspended reads may read again once it renders again (TanStack Router's guide to React Query).
  useEffect(() => queryErrorResetBoundary.reset(), [queryErrorResetBoundary]);
  const failedReads = useMemo(() => queryClient.getQueryCache().findAll({ predicate: (query) => query.state.error === error }).map((query) => query.queryKey), [queryClient, error]);
  const isFailedRead = failedReads.length > 0;
  const loadsAgainByItself = isFailedRead && failingSystemOf(error) === "tandem";
  useEffect(() => {
    if (!loadsAgainByItself) return undefined;
    // The failed reads again, quietly; the route loads again (from their answers) only once they answer, so a long
    // outage does not flash the pending view every period.
    const readAgain = async () => {
      await Promise.all(failedReads.map((queryKey) => queryClient.refetchQueries({ queryKey, exact: true, type: "all" })));
      if (failedReads.every((queryKey) => queryClient.getQueryState(queryKey)?.status === "success")) await router.invalidate();
    };
    const timer = setInterval(() => void readAgain(), TANDEM_TROUBLE_REREAD_MS);
    return () => clearInterval(timer);
  }, [loadsAgainByItself, failedReads, queryClient, router]);
  if (isFailedRead) {
    return <ApiErrorNotice error={error} onRetry={() => void router.invalidate()} />;
  }
  if (isViewCodeMissing(error)) {
    return (
      <Notice tone="error" title="Tandem could not load this view" actions={<ReloadTandemButton />}>
        {CODE_NOT_SENT} Reloading fetches it again; text you typed is kept.
      </Notice>
    );
  }
  return (
    <Notice tone="error" title="Tandem stopped showing this view" actions={<ReloadTandemButton />}>
      An error in Tandem itself, not in the EHR or the clinic data service. Text you typed is kept: reloading Tandem opens the view again.
    </Notice>
  );
}
