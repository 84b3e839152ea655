import { useQuery, useQueryClient, type QueryClient, type QueryKey, type UseQueryOptions, type UseQueryResult } from "@tanstack/react-query";
import { use } from "react";

// For data a view waits for but can do without (a note's stored draft): like
// useSuspenseQuery, the view suspends (the route's pending view shows) until
// the first read has an answer; unlike it, a read that failed is the view's to
// handle (`data` undefined, `error` set), not thrown to the route's error view.

/** One promise per query (a query removed and read again is a new one), so React sees the same promise when it tries the render again. */
const firstAnswers = new WeakMap<object, Promise<void>>();

function firstAnswerOf<T, TKey extends QueryKey>(queryClient: QueryClient, options: UseQueryOptions<T, Error, T, TKey>): Promise<void> {
  const query = queryClient.getQueryCache().build(queryClient, queryClient.defaultQueryOptions(options));
  let answer = firstAnswers.get(query);
  if (!answer) {
    // The client's own retries apply (main.tsx); a read already on its way is joined, not repeated.
    answer = queryClient.fetchQuery(options).then(
      () => undefined,
      () => undefined,
    );
    firstAnswers.set(query, answer);
  }
  return answer;
}

export function useSettledQuery<T, TKey extends QueryKey>(options: UseQueryOptions<T, Error, T, TKey>): UseQueryResult<T, Error> {
  const queryClient = useQueryClient();
  const result = useQuery(options);
  if (result.isPending) use(firstAnswerOf(queryClient, options));
  return result;
}
