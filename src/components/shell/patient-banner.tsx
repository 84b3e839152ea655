import { useQuery } from "@tanstack/react-query";
import type { Session } from "#contract/app-api/session.ts";
import { contextPatientQuery } from "#src/api/patient-query.ts";
import { useUserTimeSettings } from "#src/lib/use-time-display.tsx";
import { Skeleton } from "../ui/skeleton.tsx";
import { ageOn } from "./patient-age.ts";
import { describeApiError } from "./api-error-notice.tsx";
import { Button } from "../ui/button.tsx";

/**
 * The patient in the EHR's context; for an organization without read:patients, it says why details are missing
 * here (a note carries its own patient, read with the note, so the note view may still name them).
 */
export function PatientBanner({ session }: { session: Session }) {
  const patientId = session.context.patientId;
  const canRead = session.capabilities.canReadPatients;
  const query = useQuery({ ...contextPatientQuery(patientId ?? ""), enabled: patientId !== null && canRead });
  // Today is the app's clock (Date.now, which e2e pins with the browser's clock) in the user's zone (pinnable, use-time-display.tsx).
  const { userZone } = useUserTimeSettings();
  if (!patientId) return null;
  const frame = (children: React.ReactNode) => (
    <section aria-label="Patient in context" data-testid="patient-banner" className="border-b border-brand-100 bg-brand-50 px-3 py-2 text-sm">
      {children}
    </section>
  );
  if (!canRead) {
    return frame(<p>A patient is open in the EHR. This organization has not granted Tandem access to patient records (read:patients), so this bar cannot show who it is; an open note still names the patient it is for.</p>);
  }
  if (query.isPending) return frame(<Skeleton className="h-5 w-64" />);
  if (query.isError) {
    const { title, canRetry } = describeApiError(query.error);
    return frame(
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span>Patient details could not be loaded: {title}.</span>
        {canRetry ? (
          <Button variant="secondary" onClick={() => void query.refetch()} disabled={query.isFetching}>
            {query.isFetching ? "Trying again…" : "Try again"}
          </Button>
        ) : null}
      </p>,
    );
  }
  const { patient } = query.data;
  return frame(
    <p className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
      <span className="font-semibold" data-testid="patient-name">
        <bdi>{patient.lastName}</bdi>, <bdi>{patient.firstName}</bdi>
        {patient.middleName ? (
          <>
            {" "}
            <bdi>{patient.middleName}</bdi>
          </>
        ) : null}
      </span>
      {patient.dateOfBirth ? (
        <span>
          DOB {patient.dateOfBirth} ({ageOn(patient.dateOfBirth, Date.now(), userZone)} y)
        </span>
      ) : null}
      {patient.gender ? <span className="capitalize">{patient.gender}</span> : null}
      <span>MRN {patient.mrn ?? "not recorded"}</span>
    </p>,
  );
}
