import { useQueryClient, useQueryErrorResetBoundary } from "@tanstack/react-query";
import { useRouter } from "@tanstack/react-router";
import { useEffect } from "react";
import { ApiErrorNotice } from "./api-error-notice.tsx";

// A route's error view (TanStack Router's `errorComponent`): a read its view
// cannot do without failed, in its loader or as the view waited for it
// (useSuspenseQuery). Said as every view says a failed read (the system that
// failed: Tandem's server, the clinic data service or the EHR), with Try
// again, which loads the route again. Anything else is not a read's failure
// and is not explained as one: it goes on to the router's own error view.

export function RouteErrorNotice({ error }: { error: unknown }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const queryErrorResetBoundary = useQueryErrorResetBoundary();
  // The view's suspended reads may read again once it renders again (TanStack Router's guide to React Query).
  useEffect(() => queryErrorResetBoundary.reset(), [queryErrorResetBoundary]);
  if (!queryClient.getQueryCache().getAll().some((query) => query.state.error === error)) throw error;
  return <ApiErrorNotice error={error} onRetry={() => void router.invalidate()} />;
}
