import { queryOptions } from "@tanstack/react-query";
import { session } from "../../contract/app-api/session.ts";
import { callBff } from "./bff-client.ts";

export const sessionQuery = () =>
  queryOptions({
    queryKey: ["session"],
    queryFn: ({ signal }) => callBff("/api/session", session, { signal }),
    staleTime: 60_000,
  });
