import { queryOptions } from "@tanstack/react-query";
import { contextPatientResponse } from "#contract/app-api/patient.ts";
import { callBff } from "./bff-client.ts";
import { queryKeys } from "./query-keys.ts";

/** The patient the host has in view (from the verified token's patient_id). */
export const contextPatientQuery = (patientId: string) =>
  queryOptions({
    queryKey: queryKeys.patient(patientId),
    queryFn: ({ signal }) => callBff("/api/context/patient", contextPatientResponse, { signal }),
    staleTime: 60_000,
  });
