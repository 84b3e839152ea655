import { useQuery } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import type { SlotSelection } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { localDateOf } from "#contract/time/zoned-time.ts";
import { appointmentTypesQuery, facilitiesQuery, providersQuery } from "#src/api/directory-queries.ts";
import { sessionQuery } from "#src/api/session-query.ts";
import { useCurrentFacility } from "#src/components/shell/current-facility.tsx";
import { isolateText } from "#src/lib/bidi.ts";
import { cachedIdKey, idKey } from "#contract/ids.ts";
import { useUserTimeSettings } from "#src/lib/use-time-display.tsx";
import { formatLocalDay, formatSlotTimeInText, slotAccessibleName, slotPhrase } from "./slot-text.ts";

// How a slot is put into words wherever one is shown (the slot list, the
// pick panel, the holds bar in every view): provider and facility by name,
// the time in the facility's zone, the appointment type it is held as.

type SlotPlace = Pick<Slot, "providerId" | "facilityId" | "startsAt" | "endsAt">;

export interface SlotDescriber {
  /** "10:00 EST with Dr Brooks on Tuesday 1 December". */
  phrase: (slot: SlotPlace) => string;
  /** "10:20 AM EST": the time in the facility's zone, the zone named where it differs from the user's. */
  time: (slot: SlotPlace) => string;
  /** "10:42 AM EST": any instant (epoch ms) in a facility's zone, as `time` says a slot's start. */
  timeAt: (epochMs: number, facilityId: string) => string;
  /** The full accessible name, as in the list. */
  label: (slot: Slot) => string;
  /** "Thu 19 Nov": the slot's local day in its facility's zone. */
  day: (slot: SlotPlace) => string;
  providerName: (providerId: string) => string;
  facilityName: (facilityId: string) => string;
  /** "New Patient Visit (new patient)": the appointment type a hold carries. */
  appointmentTypeName: (request: Pick<SlotSelection, "appointmentTypeId" | "isNewPatient">) => string;
}

export interface AppointmentTypeOption {
  id: string;
  name: string;
  defaultDurationMinutes: number;
  newPatientDurationMinutes: number;
}

export const appointmentTypeOf = (types: readonly AppointmentTypeOption[], id: string) => types.find((candidate) => idKey(candidate.id) === idKey(id));

/** EHR names go into sentences: isolated, so a right-to-left or overriding name cannot reorder them. */
const isolatedOrUndefined = (name: string | undefined) => (name === undefined ? undefined : isolateText(name));

export function useSlotDescriber() {
  const { facility } = useCurrentFacility();
  const session = useQuery(sessionQuery());
  const types = useQuery(appointmentTypesQuery());
  const providers = useQuery(providersQuery());
  const facilities = useQuery(facilitiesQuery());
  const reader = useUserTimeSettings();
  const { userZone } = reader;

  const appointmentTypes = useMemo(() => types.data?.appointmentTypes ?? [], [types.data]);
  const providerById = useMemo(() => new Map((providers.data?.providers ?? []).map((provider) => [idKey(provider.id), provider])), [providers.data]);
  const facilityList = useMemo((): { id: string; name: string; timezone: string; city?: string }[] => facilities.data?.facilities ?? session.data?.facilities ?? [], [facilities.data, session.data]);
  const facilityById = useMemo(() => new Map(facilityList.map((candidate) => [idKey(candidate.id), candidate])), [facilityList]);
  /** The pickers' name, or undefined for a provider they leave out (hidden). */
  const listedProviderName = useCallback((providerId: string) => isolatedOrUndefined(providerById.get(cachedIdKey(providerId))?.displayName), [providerById]);
  const listedFacilityName = useCallback((facilityId: string) => isolatedOrUndefined(facilityById.get(cachedIdKey(facilityId))?.name), [facilityById]);
  const providerName = useCallback((providerId: string) => listedProviderName(providerId) ?? "Unlisted provider", [listedProviderName]);
  const facilityName = useCallback((facilityId: string) => listedFacilityName(facilityId) ?? "Unlisted facility", [listedFacilityName]);
  const fallbackZone = facility?.timezone ?? userZone;
  const zoneOf = useCallback((facilityId: string) => facilityById.get(cachedIdKey(facilityId))?.timezone ?? fallbackZone, [facilityById, fallbackZone]);

  const describe: SlotDescriber = useMemo(() => {
    const dateOf = (slot: SlotPlace) => localDateOf(Date.parse(slot.startsAt), zoneOf(slot.facilityId));
    return {
      phrase: (slot) => slotPhrase(slot, providerName(slot.providerId), dateOf(slot), zoneOf(slot.facilityId), reader),
      time: (slot) => formatSlotTimeInText(Date.parse(slot.startsAt), zoneOf(slot.facilityId), reader),
      timeAt: (epochMs, facilityId) => formatSlotTimeInText(epochMs, zoneOf(facilityId), reader),
      label: (slot) => slotAccessibleName({ slot, providerName: providerName(slot.providerId), localDate: dateOf(slot), zone: zoneOf(slot.facilityId), reader }),
      day: (slot) => formatLocalDay(dateOf(slot), reader, { short: true }),
      providerName,
      facilityName,
      appointmentTypeName: (request) => `${isolateText(appointmentTypeOf(appointmentTypes, request.appointmentTypeId)?.name ?? "Appointment")}${request.isNewPatient ? " (new patient)" : ""}`,
    };
  }, [zoneOf, providerName, facilityName, appointmentTypes, reader]);

  return { describe, reader, providerName, facilityName, listedProviderName, listedFacilityName, zoneOf, fallbackZone, userZone, appointmentTypes, facilityList };
}
