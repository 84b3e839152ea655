import { createContext, useContext, useState, type ReactNode } from "react";
import type { SessionFacility } from "#contract/app-api/session.ts";

// The facility the header shows (its name and local time): the one in the
// token's context, else the first visible one; the user may switch.

const CurrentFacilityContext = createContext<{ facility: SessionFacility | null; choose: (id: string) => void }>({ facility: null, choose: () => undefined });

export function CurrentFacilityProvider({ facilities, initialId, children }: { facilities: SessionFacility[]; initialId: string | null; children: ReactNode }) {
  const [chosenId, choose] = useState<string | null>(initialId);
  const facility = facilities.find((candidate) => candidate.id === chosenId) ?? facilities[0] ?? null;
  return <CurrentFacilityContext.Provider value={{ facility, choose }}>{children}</CurrentFacilityContext.Provider>;
}

export const useCurrentFacility = () => useContext(CurrentFacilityContext);
