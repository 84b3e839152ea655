import { useId } from "react";
import { CrossIcon } from "#src/components/ui/icons.tsx";
import { formatWallTime } from "#src/lib/time-format.ts";
import { useUserTimeSettings } from "#src/lib/use-time-display.tsx";
import { WEEKDAY_LABELS } from "./waitlist-form-model.ts";

// "Times and days" of a waitlist entry, as the slot finder's filter has them:
// a start-time range on the facility's clock, quick choices, weekday toggles.

export interface TimesDraft {
  startsFrom: string;
  startsBefore: string;
  weekdays: number[];
}

const PRESETS = [
  { id: "mornings", label: () => "Mornings", startsFrom: "", startsBefore: "12:00" },
  { id: "afternoons", label: () => "Afternoons", startsFrom: "12:00", startsBefore: "17:00" },
  { id: "late", label: (locale: string) => `After ${formatWallTime(16 * 60, locale)}`, startsFrom: "16:00", startsBefore: "" },
] as const;

const inputClass = "min-h-9 w-full min-w-0 rounded-md border bg-white px-2 text-sm";
const chipClass = (isOn: boolean) =>
  `min-h-8 rounded-md border px-2 text-sm font-medium ${isOn ? "border-brand-700 bg-brand-700 text-white" : "border-slate-300 bg-white text-slate-800 hover:bg-slate-100"}`;

export function WaitlistTimeFields({ value, onChange, error }: { value: TimesDraft; onChange: (next: TimesDraft) => void; error: string | undefined }) {
  const id = useId();
  const { locale } = useUserTimeSettings();
  const toggleDay = (day: number) => onChange({ ...value, weekdays: value.weekdays.includes(day) ? value.weekdays.filter((other) => other !== day) : [...value.weekdays, day].sort() });
  const invalid = error ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};
  return (
    <fieldset className="min-w-0">
      <legend className="mb-1 text-sm font-medium">Times and days</legend>
      <p className="mb-2 text-xs text-slate-600">On each facility's clock. Leave empty for any time; no day ticked means every day.</p>
      <div className="flex flex-wrap items-end gap-x-4 gap-y-2">
        <div className="grid w-full grid-cols-2 gap-2 sm:w-72">
          <div className="min-w-0">
            <label htmlFor={`${id}-from`} className="block text-xs text-slate-700">
              Starting from
            </label>
            <input id={`${id}-from`} type="time" value={value.startsFrom} onChange={(event) => onChange({ ...value, startsFrom: event.target.value })} className={`${inputClass} ${error ? "border-red-600" : "border-slate-300"}`} {...invalid} />
          </div>
          <div className="min-w-0">
            <label htmlFor={`${id}-before`} className="block text-xs text-slate-700">
              Starting before
            </label>
            <input id={`${id}-before`} type="time" value={value.startsBefore} onChange={(event) => onChange({ ...value, startsBefore: event.target.value })} className={`${inputClass} ${error ? "border-red-600" : "border-slate-300"}`} {...invalid} />
          </div>
        </div>
        <div role="group" aria-label="Times of day" className="flex flex-wrap gap-1.5">
          {PRESETS.map((preset) => {
            const isOn = value.startsFrom === preset.startsFrom && value.startsBefore === preset.startsBefore;
            return (
              <button key={preset.id} type="button" aria-pressed={isOn} className={chipClass(isOn)} onClick={() => onChange({ ...value, startsFrom: isOn ? "" : preset.startsFrom, startsBefore: isOn ? "" : preset.startsBefore })}>
                {preset.label(locale)}
              </button>
            );
          })}
        </div>
        <div role="group" aria-label="Weekdays" className="flex flex-wrap gap-1">
          {WEEKDAY_LABELS.map((name, day) => (
            <button key={name} type="button" aria-pressed={value.weekdays.includes(day)} className={chipClass(value.weekdays.includes(day))} onClick={() => toggleDay(day)}>
              {name}
            </button>
          ))}
        </div>
      </div>
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          <CrossIcon className="mr-1 h-[1em] w-[1em]" />
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
