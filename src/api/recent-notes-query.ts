import { queryOptions } from "@tanstack/react-query";
import { recentNotesResponse } from "#contract/app-api/recent-notes.ts";
import { callBff } from "./bff-client.ts";
import { queryKeys } from "./query-keys.ts";

/**
 * The notes this user opened or edited through Tandem, newest first
 * (standalone only: the BFF refuses it inside the EHR). Read afresh each time
 * the list is shown: the BFF refreshes every note from the service.
 */
export const recentNotesQuery = () =>
  queryOptions({
    queryKey: queryKeys.recentNotes(),
    queryFn: ({ signal }) => callBff("/api/notes/recent", recentNotesResponse, { signal }),
    refetchOnMount: "always",
  });
