import { memo, useId } from "react";
import type { PickerAppointmentType } from "#contract/app-api/session.ts";
import type { SlotSearchQuery } from "#contract/app-api/slots.ts";
import { Button } from "#src/components/ui/button.tsx";
import { Spinner } from "#src/components/ui/spinner.tsx";
import { MultiSelectPicker, type PickerOption } from "#src/components/ui/multi-select-picker.tsx";
import { effectiveSlotLength, parseSlotLength, searchScopeLimits, slotLengthWarning } from "./slot-filters.ts";
import { AppointmentTypeField, DateRangeFields, NewPatientField, SlotLengthField } from "./slot-filter-fields.tsx";
import { SlotTimeFields } from "#src/scheduling/slot-time-fields.tsx";
import type { SlotTimeFilter } from "#src/scheduling/slot-time-filter.ts";
import { useSlotFilterDraft } from "./use-slot-filter-draft.ts";

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
  /** Today in the header facility's zone: the first date a search may start on. */
  today: string;
}

export const SlotFilterForm = memo(function SlotFilterForm({ applied, appliedTime, appointmentTypes, facilityOptions, providerOptions, isLoadingProviders, isSearching, onSearch, onChangedChange, today }: SlotFilterFormProps) {
  const id = useId();
  const { draft, update, errors, timeDraft, setTimeDraft, timeError, submit } = useSlotFilterDraft({ applied, appliedTime, onSearch, onChangedChange, today });
  const type = appointmentTypes.find((candidate) => candidate.id === draft.appointmentTypeId);
  const defaultLength = effectiveSlotLength({ isNewPatient: draft.isNewPatient }, type);
  const typedLength = parseSlotLength(draft.slotLength);
  const lengthWarning = slotLengthWarning(typeof typedLength === "number" ? typedLength : undefined, type && defaultLength !== undefined ? { typeName: type.name, minutes: defaultLength } : undefined);
  const field = { id, draft, errors, update };
  const limits = searchScopeLimits(draft, facilityOptions.length);

  return (
    <form data-testid="slot-search" aria-label="Find a slot" noValidate onSubmit={submit} className="rounded-lg border border-slate-200 bg-white p-3">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <AppointmentTypeField {...field} appointmentTypes={appointmentTypes} type={type} />

        <MultiSelectPicker
          label="Facilities"
          noun="facilities"
          options={facilityOptions}
          selected={draft.facilityIds}
          onChange={(facilityIds) => update({ facilityIds })}
          error={errors.facilityIds}
          maxSelected={limits.maxFacilities}
          limitHint={limits.facilityHint}
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

        <DateRangeFields {...field} today={today} maxEndDate={limits.maxEndDate} limitHint={limits.datesHint} />

        <SlotLengthField {...field} defaultLength={defaultLength} warning={lengthWarning} />

        <div className="sm:col-span-2 lg:col-span-3">
          <SlotTimeFields value={timeDraft} onChange={setTimeDraft} error={timeError} />
        </div>

        <div className="flex min-w-0 flex-col justify-between gap-3">
          <NewPatientField {...field} type={type} />
          {/* Busy where the user pressed it: the results, which say so too, may be a screen below. */}
          <Button type="submit" className="w-full sm:w-auto sm:self-start" aria-describedby={isSearching ? `${id}-searching` : undefined}>
            {isSearching ? <Spinner onDark /> : null}
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
});
