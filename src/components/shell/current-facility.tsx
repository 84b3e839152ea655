import { createContext, useContext, useState, type ReactNode } from "react";
import type { SessionFacility } from "#contract/app-api/session.ts";
import { isSameId } from "#contract/ids.ts";

// The facility the header shows (its name and local time): the one in the
// token's context, else the first visible one; the user may switch.

/** The facility the header shows: the one chosen (at first the token's context's), else the first visible one. */
export function headerFacility(facilities: readonly SessionFacility[], chosenId: string | null): SessionFacility | null {
  return facilities.find((candidate) => chosenId !== null && isSameId(candidate.id, chosenId)) ?? facilities[0] ?? null;
}

const CurrentFacilityContext = createContext<{ facility: SessionFacility | null; choose: (id: string) => void }>({ facility: null, choose: () => undefined });

export function CurrentFacilityProvider({ facilities, initialId, children }: { facilities: SessionFacility[]; initialId: string | null; children: ReactNode }) {
  const [chosenId, choose] = useState<string | null>(initialId);
  const facility = headerFacility(facilities, chosenId);
  return <CurrentFacilityContext.Provider value={{ facility, choose }}>{children}</CurrentFacilityContext.Provider>;
}

export const useCurrentFacility = () => useContext(CurrentFacilityContext);
