import { createFileRoute } from "@tanstack/react-router";
import { prefetchDirectory } from "../api/directory-queries.ts";
import { validateSlotSearch } from "#src/scheduling/slot-search-params.ts";
import { SlotsView } from "../features/slots/slots-view.tsx";

// Thin (STYLE.md 6): the filters as validated search params; the view, split
// into its own chunk, does the rest (src/features/slots/).
export const Route = createFileRoute("/slots")({
  validateSearch: validateSlotSearch,
  // The pickers' lists start loading with the route (not awaited: the view shows its own loading state).
  loader: ({ context }) => prefetchDirectory(context.queryClient),
  component: SlotsView,
});
