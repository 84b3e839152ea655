import { useEffect, useId, useState, type FormEvent } from "react";
import type { PickerAppointmentType } from "../../../contract/app-api/session.ts";
import type { SlotSearchQuery } from "../../../contract/app-api/slots.ts";
import { Button } from "../../components/ui/button.tsx";
import { MultiSelectPicker, type PickerOption } from "../../components/ui/multi-select-picker.tsx";
import { draftOf, effectiveSlotLength, filtersFromDraft, isDraftChanged, isNewPatientType, type SlotFilterDraft, type SlotFilterErrors } from "./slot-filters.ts";
import { SlotTimeFields, type SlotTimeDraft } from "./slot-time-fields.tsx";
import { sameTimeFilter, timeDraftOf, timeFilterFromDraft, type SlotTimeFilter } from "./slot-time-filter.ts";
import { CrossIcon } from "../../components/ui/icons.tsx";

// The filters. Edits stay in the form until Search: the search runs on
// submit (or on load from the URL), never on each keystroke.

interface SlotFilterFormProps {
  /** The search in the URL (defaults filled in); the form starts from it. */
  applied: SlotSearchQuery;
  /** The times of day and weekdays in the URL. */
  appliedTime: SlotTimeFilter;
  appointmentTypes: PickerAppointmentType[];
  facilityOptions: PickerOption[];
  providerOptions: PickerOption[];
  isLoadingProviders: boolean;
  isSearching: boolean;
  onSearch: (filters: SlotSearchQuery, time: SlotTimeFilter) => void;
  /** The draft now differs from the search the list answers (or agrees with it again). */
  onChangedChange?: (isChanged: boolean) => void;
}

const inputClass = "min-h-9 w-full min-w-0 rounded-md border bg-white px-2 text-sm";
const borderFor = (error: string | undefined) => (error ? "border-red-600" : "border-slate-300");

/** Only ids of elements that are rendered: a reference to a missing id is an accessibility error. */
const describedBy = (...ids: (string | false | undefined)[]) => ids.filter(Boolean).join(" ") || undefined;

function FieldError({ id, error }: { id: string; error: string | undefined }) {
  if (!error) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-700">
      <CrossIcon className="mr-1 h-[1em] w-[1em]" />
      {error}
    </p>
  );
}

export function SlotFilterForm({ applied, appliedTime, appointmentTypes, facilityOptions, providerOptions, isLoadingProviders, isSearching, onSearch, onChangedChange }: SlotFilterFormProps) {
  const id = useId();
  const [draft, setDraft] = useState<SlotFilterDraft>(() => draftOf(applied));
  const [errors, setErrors] = useState<SlotFilterErrors>({});
  const [timeDraft, setTimeDraft] = useState<SlotTimeDraft>(() => timeDraftOf(appliedTime));
  const [timeError, setTimeError] = useState<string | undefined>(undefined);
  const update = (patch: Partial<SlotFilterDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const type = appointmentTypes.find((candidate) => candidate.id === draft.appointmentTypeId);
  const defaultLength = effectiveSlotLength({ isNewPatient: draft.isNewPatient }, type);
  const draftTime = timeFilterFromDraft(timeDraft).filter;
  const isChanged = isDraftChanged(draft, applied) || draftTime === null || !sameTimeFilter(draftTime, appliedTime);
  useEffect(() => onChangedChange?.(isChanged), [isChanged, onChangedChange]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = filtersFromDraft(draft);
    const time = timeFilterFromDraft(timeDraft);
    setErrors(result.errors ?? {});
    setTimeError(time.error ?? undefined);
    if (result.filters && time.filter) onSearch(result.filters, time.filter);
  };

  return (
    <form data-testid="slot-search" aria-label="Find a slot" noValidate onSubmit={submit} className="rounded-lg border border-slate-200 bg-white p-3">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
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

        <MultiSelectPicker
          label="Facilities"
          noun="facilities"
          options={facilityOptions}
          selected={draft.facilityIds}
          onChange={(facilityIds) => update({ facilityIds })}
          error={errors.facilityIds}
        />

        <MultiSelectPicker
          label="Providers"
          noun="providers"
          allLabel="All providers"
          options={providerOptions}
          selected={draft.providerIds}
          onChange={(providerIds) => update({ providerIds })}
          isSearchable
          isLoading={isLoadingProviders}
        />

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
                min={draft.startDate || undefined}
                onChange={(event) => update({ endDate: event.target.value })}
                aria-describedby={describedBy(errors.endDate && `${id}-to-error`)}
                aria-invalid={errors.endDate ? true : undefined}
                className={`${inputClass} ${borderFor(errors.endDate)}`}
              />
            </div>
          </div>
          <FieldError id={`${id}-from-error`} error={errors.startDate} />
          <FieldError id={`${id}-to-error`} error={errors.endDate} />
        </fieldset>

        <div className="min-w-0">
          <label htmlFor={`${id}-length`} className="mb-1 block text-sm font-medium">
            Slot length (minutes)
          </label>
          <input
            id={`${id}-length`}
            type="number"
            inputMode="numeric"
            min={5}
            max={480}
            step={5}
            value={draft.slotLength}
            placeholder={defaultLength === undefined ? "" : String(defaultLength)}
            onChange={(event) => update({ slotLength: event.target.value })}
            aria-describedby={describedBy(`${id}-length-hint`, errors.slotLength && `${id}-length-error`)}
            aria-invalid={errors.slotLength ? true : undefined}
            className={`${inputClass} ${borderFor(errors.slotLength)}`}
          />
          <p id={`${id}-length-hint`} className="mt-1 text-xs text-slate-600">
            {defaultLength === undefined ? "Leave empty for the type's default." : `Leave empty for the default: ${defaultLength} min${draft.isNewPatient ? " (new patient)" : ""}.`}
          </p>
          <FieldError id={`${id}-length-error`} error={errors.slotLength} />
        </div>

        <div className="sm:col-span-2 lg:col-span-3">
          <SlotTimeFields value={timeDraft} onChange={setTimeDraft} error={timeError} />
        </div>

        <div className="flex min-w-0 flex-col justify-between gap-3">
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
          <Button type="submit" className="w-full sm:w-auto sm:self-start" aria-describedby={isSearching ? `${id}-searching` : undefined}>
            Search
          </Button>
          {isSearching ? (
            <span id={`${id}-searching`} className="sr-only">
              Searching
            </span>
          ) : null}
        </div>
      </div>
    </form>
  );
}
