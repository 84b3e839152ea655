import { Link } from "@tanstack/react-router";
import type { Session } from "#contract/app-api/session.ts";
import { lastSlotSearch } from "#src/scheduling/last-slot-search.ts";
import { canUseWaitlist } from "#contract/app-api/waitlist.ts";

const linkClass = "rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100";
const activeClass = "bg-brand-50 text-brand-800";

export function MainNav({ session }: { session: Session }) {
  return (
    <nav aria-label="Tandem" className="flex gap-1 overflow-x-auto border-b border-slate-200 bg-white px-2 py-1">
      {/* Back to the last search, not the defaults; the current page whatever filters its URL carries. */}
      <Link to="/slots" search={lastSlotSearch} activeOptions={{ includeSearch: false }} className={linkClass} activeProps={{ className: activeClass, "aria-current": "page" }}>
        Slots
      </Link>
      <Link to="/availability" className={linkClass} activeProps={{ className: activeClass, "aria-current": "page" }}>
        Availability
      </Link>
      {canUseWaitlist(session.user.roles) ? (
        <Link to="/waitlist" className={linkClass} activeProps={{ className: activeClass, "aria-current": "page" }}>
          Waitlist
        </Link>
      ) : null}
      {session.capabilities.canEditNotes ? (
        <Link to="/note" className={linkClass} activeProps={{ className: activeClass, "aria-current": "page" }}>
          Note
        </Link>
      ) : null}
    </nav>
  );
}
