import type { AvailabilityTemplate } from "../expand-template.ts";

// A service availability template for the availability view's unit tests:
// a weekly morning clinic in New York unless the test says otherwise.

export const FIXTURE_ZONE = "America/New_York";
export const FIXTURE_PROVIDER = "prv_000000000000000000000000000000b1";

export function availabilityTemplate(id: string, overrides: Partial<AvailabilityTemplate> = {}): AvailabilityTemplate {
  return {
    id: `avt_${id.padStart(32, "0")}`,
    externalId: id,
    providerId: FIXTURE_PROVIDER,
    facilityId: "fac_00000000000000000000000000000001",
    name: "Morning clinic",
    startTimeLocal: "08:00",
    endTimeLocal: "12:00",
    timezone: FIXTURE_ZONE,
    slotIntervalMinutes: 20,
    concurrency: 1,
    recurrence: { rrule: `DTSTART;TZID=${FIXTURE_ZONE}:20240304T080000\nRRULE:FREQ=WEEKLY;BYDAY=TU`, until: null },
    allowedAppointmentTypeIds: null,
    active: true,
    ...overrides,
  };
}
