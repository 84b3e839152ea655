import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { providersQuery } from "#src/api/directory-queries.ts";
import type { PickerOption } from "#src/components/ui/multi-select-picker.tsx";

// The provider and facility pickers' options for the slot filter form: providers by last name, with title and roles; facilities with city and zone.

interface FacilityEntry {
  id: string;
  name: string;
  city?: string;
  timezone: string;
}

export function useFilterOptions(facilityList: readonly FacilityEntry[]): { providerOptions: PickerOption[]; facilityOptions: PickerOption[]; isLoadingProviders: boolean } {
  const providers = useQuery(providersQuery());
  const providerOptions: PickerOption[] = useMemo(
    () =>
      [...(providers.data?.providers ?? [])]
        .sort((a, b) => a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName))
        .map((provider) => ({ value: provider.id, label: provider.displayName, detail: [provider.title, provider.roles.join(", ")].filter(Boolean).join(" · ") })),
    [providers.data],
  );
  const facilityOptions: PickerOption[] = useMemo(
    () => facilityList.map((candidate) => ({ value: candidate.id, label: candidate.name, detail: [candidate.city, candidate.timezone].filter(Boolean).join(" · ") })),
    [facilityList],
  );
  return { providerOptions, facilityOptions, isLoadingProviders: providers.isPending };
}
