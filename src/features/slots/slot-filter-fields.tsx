import type { PickerAppointmentType } from "#contract/app-api/session.ts";
import { FieldError, borderFor, describedBy, inputClass } from "#src/components/ui/form-field.tsx";
import { AlertIcon } from "#src/components/ui/icons.tsx";
import { isNewPatientType, type SlotFilterDraft, type SlotFilterErrors } from "./slot-filters.ts";

// The slot filter form's own fields (the pickers and the times of day are
// components of their own). Each is labelled, hinted and errored by ids under
// the form's one `useId`, so the form's DOM does not depend on how it is split.

/** What every field gets: the form's id prefix, the draft with its errors, and how to change it. */
export interface FilterFieldProps {
  id: string;
  draft: SlotFilterDraft;
  errors: SlotFilterErrors;
  update: (patch: Partial<SlotFilterDraft>) => void;
}

export function AppointmentTypeField({ id, draft, errors, update, appointmentTypes, type }: FilterFieldProps & { appointmentTypes: PickerAppointmentType[]; type: PickerAppointmentType | undefined }) {
  return (
    <div className="min-w-0">
      <label htmlFor={`${id}-type`} className="mb-1 block text-sm font-medium">
        Appointment type
      </label>
      <select
        id={`${id}-type`}
        value={draft.appointmentTypeId}
        onChange={(event) => {
          const chosen = appointmentTypes.find((candidate) => candidate.id === event.target.value);
          // A type meant for new patients ticks the box; the user may still untick it.
          update({ appointmentTypeId: event.target.value, ...(chosen && isNewPatientType(chosen) ? { isNewPatient: true } : {}) });
        }}
        aria-describedby={describedBy(type && `${id}-type-hint`, errors.appointmentTypeId && `${id}-type-error`)}
        aria-invalid={errors.appointmentTypeId ? true : undefined}
        className={`${inputClass} ${borderFor(errors.appointmentTypeId)}`}
      >
        {appointmentTypes.map((option) => (
          <option key={option.id} value={option.id}>
            {option.name} ({option.defaultDurationMinutes} min)
          </option>
        ))}
      </select>
      {type ? (
        <p id={`${id}-type-hint`} className="mt-1 text-xs text-slate-600">
          Default length {type.defaultDurationMinutes} min; new patient {type.newPatientDurationMinutes} min.
        </p>
      ) : null}
      <FieldError id={`${id}-type-error`} error={errors.appointmentTypeId} />
    </div>
  );
}

/** `today`: the first start date the calendar offers; `maxEndDate`: the last end date the chosen facilities allow; `limitHint`: why, while it binds. */
export function DateRangeFields({ id, draft, errors, update, today, maxEndDate, limitHint }: FilterFieldProps & { today?: string | undefined; maxEndDate?: string | undefined; limitHint?: string | undefined }) {
  return (
    <fieldset className="min-w-0">
      <legend className="mb-1 text-sm font-medium">Dates (each facility's local dates)</legend>
      <div className="grid grid-cols-2 gap-2">
        <div className="min-w-0">
          <label htmlFor={`${id}-from`} className="block text-xs text-slate-700">
            From
          </label>
          <input
            id={`${id}-from`}
            type="date"
            value={draft.startDate}
            min={today}
            onChange={(event) => update({ startDate: event.target.value })}
            aria-describedby={describedBy(errors.startDate && `${id}-from-error`)}
            aria-invalid={errors.startDate ? true : undefined}
            className={`${inputClass} ${borderFor(errors.startDate)}`}
          />
        </div>
        <div className="min-w-0">
          <label htmlFor={`${id}-to`} className="block text-xs text-slate-700">
            To
          </label>
          <input
            id={`${id}-to`}
            type="date"
            value={draft.endDate}
            min={draft.startDate || today}
            max={maxEndDate}
            onChange={(event) => update({ endDate: event.target.value })}
            aria-describedby={describedBy(limitHint && `${id}-dates-hint`, errors.endDate && `${id}-to-error`)}
            aria-invalid={errors.endDate ? true : undefined}
            className={`${inputClass} ${borderFor(errors.endDate)}`}
          />
        </div>
      </div>
      {limitHint ? (
        <p id={`${id}-dates-hint`} className="mt-1 text-xs text-slate-600">
          {limitHint}
        </p>
      ) : null}
      <FieldError id={`${id}-from-error`} error={errors.startDate} />
      <FieldError id={`${id}-to-error`} error={errors.endDate} />
    </fieldset>
  );
}

/** `defaultLength`: the type's usual length for the new-patient flag; `warning`: why the typed length may not fit the visit (it is still searched). */
export function SlotLengthField({ id, draft, errors, update, defaultLength, warning }: FilterFieldProps & { defaultLength: number | undefined; warning: string | null }) {
  return (
    <div className="min-w-0">
      <label htmlFor={`${id}-length`} className="mb-1 block text-sm font-medium">
        Slot length (minutes)
      </label>
      {/* Text, not a number input: a number input reads "1e" as empty, which would search the default without a word. */}
      <input
        id={`${id}-length`}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        value={draft.slotLength}
        placeholder={defaultLength === undefined ? "" : String(defaultLength)}
        onChange={(event) => update({ slotLength: event.target.value })}
        aria-describedby={describedBy(`${id}-length-hint`, warning !== null && !errors.slotLength && `${id}-length-warning`, errors.slotLength && `${id}-length-error`)}
        aria-invalid={errors.slotLength ? true : undefined}
        className={`${inputClass} ${borderFor(errors.slotLength)}`}
      />
      <p id={`${id}-length-hint`} className="mt-1 text-xs text-slate-600">
        {defaultLength === undefined ? "Leave empty for the type's default." : `Leave empty for the default: ${defaultLength} min${draft.isNewPatient ? " (new patient)" : ""}.`}
      </p>
      {/* Always in the page, so the warning is announced as it appears while typing. */}
      <p id={`${id}-length-warning`} aria-live="polite" className="text-sm text-amber-800">
        {warning !== null && !errors.slotLength ? (
          <span data-testid="slot-length-warning" className="mt-1 block">
            <AlertIcon className="mr-1 h-[1em] w-[1em]" />
            {warning}
          </span>
        ) : null}
      </p>
      <FieldError id={`${id}-length-error`} error={errors.slotLength} />
    </div>
  );
}

export function NewPatientField({ id, draft, update, type }: Omit<FilterFieldProps, "errors"> & { type: PickerAppointmentType | undefined }) {
  return (
    <div className="flex items-start gap-2 pt-1">
      <input
        id={`${id}-new-patient`}
        type="checkbox"
        checked={draft.isNewPatient}
        onChange={(event) => update({ isNewPatient: event.target.checked })}
        aria-describedby={`${id}-new-patient-hint`}
        className="mt-0.5 h-4 w-4 shrink-0 accent-brand-700"
      />
      <div>
        <label htmlFor={`${id}-new-patient`} className="text-sm font-medium">
          New patient
        </label>
        <p id={`${id}-new-patient-hint`} className="text-xs text-slate-600">
          {type ? `Changes the default length to ${type.newPatientDurationMinutes} min.` : "Changes the default length."}
        </p>
      </div>
    </div>
  );
}
