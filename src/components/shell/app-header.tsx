import type { Session } from "#contract/app-api/session.ts";
import { Badge } from "../ui/badge.tsx";
import { FacilityClock } from "./facility-clock.tsx";

export function AppHeader({ session, organizationName }: { session: Session; organizationName: string | undefined }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 px-3 py-2">
        <div className="flex min-w-0 items-center gap-2">
          <span aria-hidden="true" className="grid h-7 w-7 shrink-0 place-items-center rounded-full bg-brand-700 text-sm font-bold text-white">
            T
          </span>
          <div className="min-w-0">
            <p className="truncate text-sm font-semibold" data-testid="organization-name">
              {organizationName ?? `Organization ${session.organization.id.slice(0, 8)}`}
            </p>
            <p className="truncate text-xs text-slate-600" data-testid="signed-in-user">
              <bdi>{session.user.displayName}</bdi> <span className="sr-only">role:</span>
              {session.user.roles.map((role) => (
                <Badge key={role} className="ml-1">
                  {role}
                </Badge>
              ))}
            </p>
          </div>
        </div>
        <FacilityClock facilities={session.facilities} />
      </div>
    </header>
  );
}
