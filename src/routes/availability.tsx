import { createFileRoute } from "@tanstack/react-router";
import { prefetchDirectory } from "../api/directory-queries.ts";
import { validateAvailabilitySearch } from "../features/availability/availability-search-params.ts";
import { AvailabilityView } from "../features/availability/availability-view.tsx";

// Thin (STYLE.md 6): the facility, provider, week and view mode as validated
// search params; the view, split into its own chunk, does the rest
// (src/features/availability/).
export const Route = createFileRoute("/availability")({
  validateSearch: validateAvailabilitySearch,
  // The pickers' lists start loading with the route (not awaited: the view shows its own loading state).
  loader: ({ context }) => prefetchDirectory(context.queryClient),
  component: AvailabilityView,
});
