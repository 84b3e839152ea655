import { useQuery } from "@tanstack/react-query";
import { memo, useId, useState, type ReactNode } from "react";
import { APP_ERROR_CODES } from "#contract/app-api/errors.ts";
import type { PatientAppointment, PatientAppointmentsResponse } from "#contract/app-api/patient.ts";
import { isSameId } from "#contract/ids.ts";
import { localDateOf } from "#contract/time/zoned-time.ts";
import { ApiError } from "#src/api/bff-client.ts";
import { contextPatientAppointmentsQuery } from "#src/api/patient-appointments-query.ts";
import { ApiErrorNotice } from "#src/components/shell/api-error-notice.tsx";
import { Badge } from "#src/components/ui/badge.tsx";
import { Skeleton } from "#src/components/ui/skeleton.tsx";
import type { UserTimeSettings } from "#src/lib/use-time-display.tsx";
import { formatLocalDay, formatSlotTime, slotZoneName } from "#src/scheduling/slot-text.ts";

// The open patient's upcoming appointments, beside the slot finder, so the
// front desk does not double-book the patient on the phone. Times are the
// facility's, the zone named where it differs from the user's (DESIGN.md
// "Times on screen").

export const PATIENT_APPOINTMENTS_SCOPE = "read:appointments";

/** The soonest appointments shown before "Show all": the slot list stays near the top of the view. */
const SHOWN_AT_FIRST = 2;

export interface PatientAppointmentsProps {
  /** The patient in the EHR's context (`session.context.patientId`); null renders nothing. */
  patientId: string | null;
  /** The app's name for a provider; undefined falls back to the name the service gives. */
  providerName: (providerId: string) => string | undefined;
  /** The app's name for a facility; undefined falls back to the name the service gives. */
  facilityName: (facilityId: string) => string | undefined;
  /** The facility's IANA zone. */
  zoneOf: (facilityId: string) => string;
  /** The user's locale and zone (the facility's zone is named beside a time only where it differs). */
  reader: UserTimeSettings;
}

export type PatientAppointmentsState =
  | { kind: "loading" }
  | { kind: "scope-not-granted" }
  | { kind: "error"; error: unknown; onRetry: () => void }
  | { kind: "loaded"; data: PatientAppointmentsResponse };

/** The installation does not grant read:appointments: told in words, not as a failure to retry. */
export function isScopeNotGranted(error: unknown): boolean {
  return error instanceof ApiError && error.body.code === APP_ERROR_CODES.scopeNotGranted && error.body.missing_scope === PATIENT_APPOINTMENTS_SCOPE;
}

/** "Confirmed", "Arrived"; an unlisted status as the service wrote it, in words. */
export function statusText(status: string): string {
  const words = status.replaceAll("_", " ").trim();
  return words === "" ? "Status not given" : `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

/** "10:00–10:30", with the zone named ("10:00–10:30 EST") where it differs from the user's. */
export function appointmentTimeText(appointment: Pick<PatientAppointment, "startsAt" | "endsAt">, zone: string, reader: UserTimeSettings): string {
  const startMs = Date.parse(appointment.startsAt);
  const range = `${formatSlotTime(startMs, zone, reader)}–${formatSlotTime(Date.parse(appointment.endsAt), zone, reader)}`;
  const zoneName = slotZoneName(startMs, zone, reader);
  return zoneName ? `${range} ${zoneName}` : range;
}

type Naming = Omit<PatientAppointmentsProps, "patientId">;

function AppointmentItem({ appointment, naming }: { appointment: PatientAppointment; naming: Naming }) {
  const zone = naming.zoneOf(appointment.facilityId);
  const startMs = Date.parse(appointment.startsAt);
  const provider = naming.providerName(appointment.providerId) ?? appointment.providerName;
  const facility = naming.facilityName(appointment.facilityId) ?? appointment.facilityName;
  return (
    <li className="flex flex-col gap-0.5 py-2" data-testid="patient-appointment">
      <p className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <time dateTime={appointment.startsAt} className="font-medium">
          {formatLocalDay(localDateOf(startMs, zone), naming.reader, { short: true })}, <span className="tabular-nums">{appointmentTimeText(appointment, zone, naming.reader)}</span>
        </time>
        <Badge>{statusText(appointment.status)}</Badge>
        {appointment.isNewPatient ? <Badge>New patient</Badge> : null}
      </p>
      <p className="break-words text-slate-700">
        {provider} · {facility}
      </p>
    </li>
  );
}

/** The panel for a given state; {@link PatientAppointments} supplies the state from the query. */
export function PatientAppointmentsView({ state, ...naming }: Naming & { state: PatientAppointmentsState }) {
  const headingId = useId();
  const [isShowingAll, setShowingAll] = useState(false);
  let body: ReactNode;
  switch (state.kind) {
    case "loading":
      body = (
        <div className="space-y-2 py-2">
          <Skeleton className="h-4 w-48 max-w-full" />
          <Skeleton className="h-4 w-64 max-w-full" />
          <Skeleton className="h-4 w-40 max-w-full" />
        </div>
      );
      break;
    case "scope-not-granted":
      body = <p className="py-2">This organization has not granted Tandem access to appointments ({PATIENT_APPOINTMENTS_SCOPE}), so the patient's other appointments cannot be shown.</p>;
      break;
    case "error":
      body = <ApiErrorNotice error={state.error} onRetry={state.onRetry} />;
      break;
    case "loaded": {
      const { appointments, meta } = state.data;
      body = (
        <>
          {appointments.length === 0 ? (
            <p className="py-2">No upcoming appointments in the EHR</p>
          ) : (
            <>
              <ol aria-labelledby={headingId} className="divide-y divide-slate-200">
                {(isShowingAll ? appointments : appointments.slice(0, SHOWN_AT_FIRST)).map((appointment) => (
                  <AppointmentItem key={appointment.id} appointment={appointment} naming={naming} />
                ))}
              </ol>
              {appointments.length > SHOWN_AT_FIRST ? (
                <button type="button" onClick={() => setShowingAll(!isShowingAll)} aria-expanded={isShowingAll} className="mb-1 text-sm font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900">
                  {isShowingAll ? "Show fewer" : `Show all ${appointments.length}`}
                </button>
              ) : null}
            </>
          )}
          {meta.hasMore ? <p className="text-xs text-slate-600">The patient has more appointments in the EHR than are listed here; the latest are left out.</p> : null}
          <p className="text-xs text-slate-600">From the clinic data service's copy of the EHR: a booking made in the last few minutes may not show yet.</p>
        </>
      );
      break;
    }
  }
  return (
    <section aria-labelledby={headingId} aria-busy={state.kind === "loading"} data-testid="patient-appointments" className="min-w-0 rounded-lg border border-slate-200 bg-white p-3 text-sm">
      <h2 id={headingId} className="font-semibold">
        This patient's upcoming appointments
      </h2>
      {body}
    </section>
  );
}

/** The upcoming appointments of the patient open in the EHR; nothing without one. */
export const PatientAppointments = memo(function PatientAppointments({ patientId, ...naming }: PatientAppointmentsProps) {
  const query = useQuery(contextPatientAppointmentsQuery(patientId));
  if (patientId === null) return null;
  let state: PatientAppointmentsState;
  if (query.isError) {
    state = isScopeNotGranted(query.error) ? { kind: "scope-not-granted" } : { kind: "error", error: query.error, onRetry: () => void query.refetch() };
  } else if (query.isPending || !isSameId(query.data.patientId, patientId)) {
    // A list for another patient (the EHR switched while it loaded) is never shown as this one's.
    state = { kind: "loading" };
  } else {
    state = { kind: "loaded", data: query.data };
  }
  return <PatientAppointmentsView state={state} {...naming} />;
});
