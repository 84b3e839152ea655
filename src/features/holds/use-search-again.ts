import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { queryKeys } from "#src/api/query-keys.ts";
import { lastSlotSearch } from "#src/scheduling/last-slot-search.ts";

/** Back to the last search (from any view), read afresh from the service. */
export function useSearchAgain(onDone: () => void): () => void {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.slots.searches });
    void navigate({ to: "/slots", search: lastSlotSearch() });
    onDone();
  };
}
