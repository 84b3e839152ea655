import { queryOptions } from "@tanstack/react-query";
import { patientAppointmentsResponse } from "#contract/app-api/patient.ts";
import { callBff } from "./bff-client.ts";
import { queryKeys } from "./query-keys.ts";

/**
 * The upcoming appointments of the patient the host has in view. The BFF
 * takes the patient from the verified token, never from the request; the key
 * carries the patient the UI shows, so switching patients never reuses a list.
 */
export const contextPatientAppointmentsQuery = (patientId: string | null) =>
  queryOptions({
    queryKey: queryKeys.patientAppointments.of(patientId),
    queryFn: ({ signal }) => callBff("/api/context/patient/appointments", patientAppointmentsResponse, { signal }),
    enabled: patientId !== null,
    staleTime: 30_000,
  });
