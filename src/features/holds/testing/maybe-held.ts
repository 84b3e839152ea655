import type { MaybeHeldSlot } from "#contract/app-api/slots.ts";

/** A hold the EHR may have made for the user: a 20-minute Follow-Up at 10:00 AM EST on Tue 1 Dec, tried at 10:31 AM EST on 17 Nov. */
export const MAYBE_HELD: MaybeHeldSlot = {
  id: "0a0a0a0a-0000-4000-8000-000000000001",
  slot: { providerId: "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", facilityId: "fac_11111111111111111111111111111111", startsAt: "2026-12-01T10:00:00-05:00", endsAt: "2026-12-01T10:20:00-05:00" },
  appointmentTypeId: "atp_dddddddddddddddddddddddddddddddd",
  slotLengthMinutes: 20,
  isNewPatient: false,
  patientId: null,
  triedAt: "2026-11-17T15:31:00.000Z",
  freesAt: "2026-11-17T15:42:00.000Z",
  canRelease: false,
};
