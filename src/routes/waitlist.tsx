import { createFileRoute } from "@tanstack/react-router";
import { canCallBff } from "../api/bff-client.ts";
import { prefetchDirectory } from "../api/directory-queries.ts";
import { waitlistQuery } from "../api/waitlist-queries.ts";
import { WaitlistView } from "../features/waitlist/waitlist-view.tsx";

// Thin (STYLE.md 6): the organization's waitlist (issue 38); the view, split
// into its own chunk, does the rest (src/features/waitlist/). The list and the
// pickers' names start loading with the route (not awaited: the view shows
// its own loading and error states).
export const Route = createFileRoute("/waitlist")({
  loader: ({ context: { queryClient } }) => {
    prefetchDirectory(queryClient);
    if (canCallBff()) void queryClient.prefetchQuery(waitlistQuery());
  },
  component: WaitlistView,
});
