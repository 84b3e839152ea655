import { useEffect, useState } from "react";
import type { SessionFacility } from "#contract/app-api/session.ts";
import { formatTime, zoneNameAt } from "#src/lib/time-format.ts";
import { useTimeDisplay } from "#src/lib/use-time-display.tsx";
import { useCurrentFacility } from "./current-facility.tsx";

function useMinuteTick(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** The current facility (switchable; a native select, light and accessible) and its local time, with the zone named when it differs from the user's. */
export function FacilityClock({ facilities }: { facilities: SessionFacility[] }) {
  const { facility, choose } = useCurrentFacility();
  const now = useMinuteTick();
  const display = useTimeDisplay(facility?.timezone ?? "UTC");
  if (!facility) return <span className="text-sm text-slate-600">No facility</span>;
  const zoneName = zoneNameAt(now, display);
  return (
    <div className="flex min-w-0 items-center gap-2 text-sm">
      <label className="sr-only" htmlFor="current-facility">
        Current facility
      </label>
      <select
        id="current-facility"
        value={facility.id}
        onChange={(event) => choose(event.target.value)}
        className="max-w-56 min-w-0 truncate rounded-md border border-slate-300 bg-white px-2 py-1 hover:bg-slate-50"
      >
        {facilities.map((option) => (
          <option key={option.id} value={option.id}>
            {option.name}
          </option>
        ))}
      </select>
      <time data-testid="facility-time" className="whitespace-nowrap tabular-nums text-slate-700" dateTime={new Date(now).toISOString()}>
        {formatTime(now, display, { zoneName: "omitted" })}
        {zoneName !== null ? <span className="text-xs text-slate-500"> {zoneName}</span> : null}
      </time>
    </div>
  );
}
