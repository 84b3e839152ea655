import { queryOptions } from "@tanstack/react-query";
import { session } from "#contract/app-api/session.ts";
import { callBff } from "./bff-client.ts";
import { queryKeys } from "./query-keys.ts";

export const sessionQuery = () =>
  queryOptions({
    queryKey: queryKeys.session(),
    queryFn: ({ signal }) => callBff("/api/session", session, { signal }),
    staleTime: 60_000,
  });
