import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { PickerAppointmentType } from "#contract/app-api/session.ts";
import { appointmentTypesQuery, facilitiesQuery, providersQuery } from "#src/api/directory-queries.ts";
import { sessionQuery } from "#src/api/session-query.ts";
import type { PickerOption } from "#src/components/ui/multi-select-picker.tsx";

// The waitlist form's choices, from the pickers' lists the slot finder reads
// too (same queryOptions): appointment types; facilities with city and zone;
// providers by last name, with title and roles.

export interface WaitlistFormOptions {
  appointmentTypes: PickerAppointmentType[];
  facilityOptions: PickerOption[];
  providerOptions: PickerOption[];
  isLoadingProviders: boolean;
  /** Each facility's IANA zone, by id. */
  zoneOf: (facilityId: string) => string | undefined;
}

export function useWaitlistFormOptions(): WaitlistFormOptions {
  const session = useQuery(sessionQuery());
  const types = useQuery(appointmentTypesQuery());
  const facilities = useQuery(facilitiesQuery());
  const providers = useQuery(providersQuery());
  const appointmentTypes = useMemo(() => types.data?.appointmentTypes ?? [], [types.data]);
  const facilityList = useMemo((): { id: string; name: string; timezone: string; city?: string }[] => facilities.data?.facilities ?? session.data?.facilities ?? [], [facilities.data, session.data]);
  const facilityOptions = useMemo(() => facilityList.map((facility) => ({ value: facility.id, label: facility.name, detail: [facility.city, facility.timezone].filter(Boolean).join(" · ") })), [facilityList]);
  const providerOptions = useMemo(
    () =>
      [...(providers.data?.providers ?? [])]
        .sort((a, b) => a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName))
        .map((provider) => ({ value: provider.id, label: provider.displayName, detail: [provider.title, provider.roles.join(", ")].filter(Boolean).join(" · ") })),
    [providers.data],
  );
  const zoneOf = useMemo(() => {
    const zones = new Map(facilityList.map((facility) => [facility.id, facility.timezone]));
    return (facilityId: string) => zones.get(facilityId);
  }, [facilityList]);
  return { appointmentTypes, facilityOptions, providerOptions, isLoadingProviders: providers.isPending, zoneOf };
}
