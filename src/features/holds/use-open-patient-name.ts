import { useQuery } from "@tanstack/react-query";
import { contextPatientQuery } from "#src/api/patient-query.ts";
import { sessionQuery } from "#src/api/session-query.ts";
import { isolateText } from "#src/lib/bidi.ts";

/** "Alvarez, Maria" when the organization lets Tandem read the open patient, else null. */
export function useOpenPatientName(patientId: string | null): string | null {
  const session = useQuery(sessionQuery());
  const canRead = session.data?.capabilities.canReadPatients ?? false;
  const patient = useQuery({ ...contextPatientQuery(patientId ?? ""), enabled: patientId !== null && canRead });
  if (!patient.data) return null;
  return isolateText(`${patient.data.patient.lastName}, ${patient.data.patient.firstName}`);
}
