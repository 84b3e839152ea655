import { useQuery, useQueryClient, type QueryClient, type QueryKey, type UseQueryOptions, type UseQueryResult } from "@tanstack/react-query";
import { use } from "react";

// For data a view waits for but can do without (a note's stored draft): like
// useSuspenseQuery, the view suspends (the route's pending view shows) until
// the first read has an answer; unlike it, a read that failed is the view's to
// handle (`data` undefined, `error` set), not thrown to the route's error view.

/** The first answer of each query (a query removed and read again is a new one): one promise, so React sees the same one each render. */
const firstAnswers = new WeakMap<object, Promise<void>>();

function firstAnswerOf<T, TKey extends QueryKey>(queryClient: QueryClient, options: UseQueryOptions<T, Error, T, TKey>, isPending: boolean): Promise<void> | null {
  const query = queryClient.getQueryCache().build(queryClient, queryClient.defaultQueryOptions(options));
  const known = firstAnswers.get(query);
  if (known || !isPending) return known ?? null;
  // The client's own retries apply (main.tsx); a read already on its way is joined, not repeated.
  const answer = queryClient.fetchQuery(options).then(
    () => undefined,
    () => undefined,
  );
  firstAnswers.set(query, answer);
  return answer;
}

export function useSettledQuery<T, TKey extends QueryKey>(options: UseQueryOptions<T, Error, T, TKey>): UseQueryResult<T, Error> {
  const queryClient = useQueryClient();
  const result = useQuery(options);
  // Once waited for, the same promise is used in every render after (settled, it no longer suspends), as React asks of use().
  const answer = firstAnswerOf(queryClient, options, result.isPending);
  if (answer) use(answer);
  return result;
}
