import { createFileRoute } from "@tanstack/react-router";
import { canUseWaitlist } from "#contract/app-api/waitlist.ts";
import { prefetchDirectory } from "../api/directory-queries.ts";
import { loadAsCurrentIdentity } from "../api/load-as-identity.ts";
import { sessionQuery } from "../api/session-query.ts";
import { waitlistQuery } from "../api/waitlist-queries.ts";
import { WaitlistError, WaitlistPending } from "../features/waitlist/waitlist-route-states.tsx";
import { WaitlistView } from "../features/waitlist/waitlist-view.tsx";

// Thin (STYLE.md 6): the organization's waitlist (issue 38); the view, split
// into its own chunk, does the rest (src/features/waitlist/). The loader reads
// the list with the same queryOptions the view reads it with (for the roles
// it is for), so the view draws it at once; meanwhile, and when it could not
// be read, the route's pending and error views stand in. The pickers' names
// start loading with it (not awaited: only editing an entry needs them).
export const Route = createFileRoute("/waitlist")({
  loader: ({ context: { queryClient }, preload }) =>
    loadAsCurrentIdentity(async () => {
      prefetchDirectory(queryClient);
      // A hover over the Waitlist tab reads no patient names (audited PHI reads the user never asked for); opening it does.
      if (preload) return;
      // A session that could not be read is the shell's to explain; once its retry reads it, the view reads the list.
      const session = await queryClient.ensureQueryData(sessionQuery()).catch(() => null);
      if (session && canUseWaitlist(session.user.roles)) await queryClient.ensureQueryData(waitlistQuery());
    }),
  pendingComponent: WaitlistPending,
  errorComponent: WaitlistError,
  component: WaitlistView,
});
