import { useId } from "react";
import { useUserTimeSettings } from "#src/lib/use-time-display.tsx";
import { TIME_OF_DAY_PRESETS, WEEKDAY_NAMES, type Weekday } from "./slot-time-filter.ts";
import { FieldError, borderFor, inputClass } from "#src/components/ui/form-field.tsx";

// "Times and days" in the filter form: a start-time range on the facility's
// clock, quick choices (mornings, afternoons, after 16:00), and weekday
// toggles. Controlled: the form keeps the draft and checks it on Search.

export interface SlotTimeDraft {
  /** "HH:MM" as typed, or empty for any. */
  startsFrom: string;
  startsBefore: string;
  weekdays: Weekday[];
}

interface SlotTimeFieldsProps {
  value: SlotTimeDraft;
  onChange: (next: SlotTimeDraft) => void;
  error: string | undefined;
}

const chipClass = (isOn: boolean) =>
  `min-h-8 rounded-md border px-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600 ${isOn ? "border-brand-700 bg-brand-700 text-white" : "border-slate-300 bg-white text-slate-800 hover:bg-slate-100"}`;

export function SlotTimeFields({ value, onChange, error }: SlotTimeFieldsProps) {
  const id = useId();
  const { locale } = useUserTimeSettings();
  const toggleDay = (day: Weekday) => onChange({ ...value, weekdays: value.weekdays.includes(day) ? value.weekdays.filter((other) => other !== day) : [...value.weekdays, day].sort() });
  return (
    <fieldset className="min-w-0" aria-describedby={`${id}-hint`}>
      <legend className="mb-1 text-sm font-medium">Times and days</legend>
      <p id={`${id}-hint`} className="mb-2 text-xs text-slate-600">
        On each facility's clock. Leave empty for any time; no day ticked means every day.
      </p>
      <div className="flex flex-wrap items-end gap-x-4 gap-y-2">
        <div className="grid w-full grid-cols-2 gap-2 sm:w-72">
          <div className="min-w-0">
            <label htmlFor={`${id}-from`} className="block text-xs text-slate-700">
              Starting from
            </label>
            <input
              id={`${id}-from`}
              type="time"
              value={value.startsFrom}
              onChange={(event) => onChange({ ...value, startsFrom: event.target.value })}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              className={`${inputClass} ${borderFor(error)}`}
            />
          </div>
          <div className="min-w-0">
            <label htmlFor={`${id}-before`} className="block text-xs text-slate-700">
              Starting before
            </label>
            <input
              id={`${id}-before`}
              type="time"
              value={value.startsBefore}
              onChange={(event) => onChange({ ...value, startsBefore: event.target.value })}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              className={`${inputClass} ${borderFor(error)}`}
            />
          </div>
        </div>
        <div role="group" aria-label="Times of day" className="flex flex-wrap gap-1.5">
          {TIME_OF_DAY_PRESETS.map((preset) => {
            const isOn = value.startsFrom === (preset.startsFrom ?? "") && value.startsBefore === (preset.startsBefore ?? "");
            return (
              <button key={preset.id} type="button" aria-pressed={isOn} className={chipClass(isOn)} onClick={() => onChange({ ...value, startsFrom: isOn ? "" : (preset.startsFrom ?? ""), startsBefore: isOn ? "" : (preset.startsBefore ?? "") })}>
                {preset.label(locale)}
              </button>
            );
          })}
        </div>
        <div role="group" aria-label="Weekdays" className="flex flex-wrap gap-1">
          {WEEKDAY_NAMES.map((name, index) => {
            const day = index as Weekday;
            const isOn = value.weekdays.includes(day);
            return (
              <button key={name} type="button" aria-pressed={isOn} className={chipClass(isOn)} onClick={() => toggleDay(day)}>
                {name}
              </button>
            );
          })}
        </div>
      </div>
      <FieldError id={`${id}-error`} error={error} />
    </fieldset>
  );
}
