import { useId, useRef, useState, type FormEvent } from "react";
import { MAX_WAITLIST_NOTE_LENGTH, MAX_WAITLIST_RANGE_DAYS, type WaitlistPreferences } from "#contract/app-api/waitlist.ts";
import { addDays } from "#contract/time/zoned-time.ts";
import { ApiError } from "#src/api/bff-client.ts";
import { clearsWhenTandemAnswers, useBffAnsweredAgain } from "#src/api/use-bff-answered-again.ts";
import { answeredAgainText, useApiErrorDescription } from "#src/components/shell/api-error-notice.tsx";
import { Button } from "#src/components/ui/button.tsx";
import { MultiSelectPicker } from "#src/components/ui/multi-select-picker.tsx";
import { FieldError, borderFor, describedBy, inputClass } from "#src/components/ui/form-field.tsx";
import { Notice } from "#src/components/ui/notice.tsx";
import { SlotTimeFields } from "../slot-time-fields.tsx";
import { withoutErrorsOf } from "#src/lib/field-errors.ts";
import { useAskBeforeUnload } from "#src/lib/use-ask-before-unload.ts";
import { forgetDraft, keepDraft, readKeptDraft } from "./kept-waitlist-draft.ts";
import { fieldOfRefusal, preferencesFromDraft, slotLengthOf, type WaitlistDraft, type WaitlistErrors, type WaitlistField } from "./waitlist-form-model.ts";
import type { WaitlistFormOptions } from "./use-waitlist-form-options.ts";

// One waitlist entry's form, to add the open patient (from the slot finder)
// or to edit an entry (the Waitlist view). The draft is kept from the
// keystroke until the BFF has it (kept-waitlist-draft.ts), so a failed save,
// leaving the view or a reload loses nothing; the check names each field, and
// a failure names the system that failed (Tandem's server, the clinic data
// service, the EHR) with the typed entry still here to save again.

export interface WaitlistEntryFormProps {
  /** "Add Alvarez, Maria to the waitlist". */
  title: string;
  /** What the kept draft is kept under: the patient being added, or the entry being edited. */
  subject: string;
  /** The form's start when no draft is kept. */
  initial: WaitlistDraft;
  options: WaitlistFormOptions;
  /** The current facility's local date: a range that has ended is refused. */
  today: string;
  /** null: there is nothing left to save to (the entry stopped waiting): what was typed stays to read until Close. */
  submitLabel: string | null;
  /** Sends the entry; rejects with the BFF's error. */
  onSave: (preferences: WaitlistPreferences) => Promise<void>;
  onCancel: () => void;
  /**
   * A line over the buttons on what saving does now (the entry changed or stopped waiting meanwhile), said there
   * as well as above the form: on a phone the notice above has scrolled away while typing.
   */
  actionsNote?: string | null;
}

/** The fields whose errors `patch` touches (the dates are checked together, as are the times). */
function errorFieldsChangedBy(patch: Partial<WaitlistDraft>): Set<WaitlistField> {
  const changed = new Set<WaitlistField>();
  for (const key of Object.keys(patch) as (keyof WaitlistDraft)[]) {
    if (key === "startDate" || key === "endDate") changed.add("startDate").add("endDate");
    else if (key === "startsFrom" || key === "startsBefore" || key === "weekdays") changed.add("times");
    else if (key === "isNewPatient") changed.add("slotLength");
    else changed.add(key);
  }
  return changed;
}

export function WaitlistEntryForm({ title, subject, initial, options, today, submitLabel, onSave, onCancel, actionsNote = null }: WaitlistEntryFormProps) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [draft, setDraft] = useState<WaitlistDraft>(() => readKeptDraft(subject) ?? initial);
  const [errors, setErrors] = useState<WaitlistErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [isSaving, setSaving] = useState(false);
  const serverBack = useBffAnsweredAgain(clearsWhenTandemAnswers(failure) ? failure : null);
  const described = useApiErrorDescription(failure, "write");
  // Typed here and not yet saved: a reload or Sign out asks first (the kept draft may have no sessionStorage to live in).
  const [hasTyped, setTyped] = useState(false);
  useAskBeforeUnload(hasTyped, "a waitlist entry not yet added");
  const update = (patch: Partial<WaitlistDraft>) => {
    setTyped(true);
    // A field changed is no longer known to be wrong: its error goes until the next check.
    setErrors((current) => withoutErrorsOf(current, errorFieldsChangedBy(patch)));
    setDraft((current) => {
      const next = { ...current, ...patch };
      keepDraft(subject, next);
      return next;
    });
  };
  const { appointmentTypes, facilityOptions, providerOptions, isLoadingProviders } = options;
  const type = appointmentTypes.find((candidate) => candidate.id === draft.appointmentTypeId);
  const defaultLength = slotLengthOf({ slotLength: "", isNewPatient: draft.isNewPatient }, type);

  const focusFirstProblem = () => requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isSaving || submitLabel === null) return;
    const checked = preferencesFromDraft(draft, appointmentTypes, today);
    setErrors(checked.errors ?? {});
    setFailure(null);
    if (!checked.preferences) {
      focusFirstProblem();
      return;
    }
    setSaving(true);
    try {
      await onSave(checked.preferences);
      forgetDraft(subject);
      setTyped(false);
    } catch (error) {
      const field = error instanceof ApiError && error.status === 400 ? fieldOfRefusal(error.body.message) : null;
      if (field && error instanceof ApiError) {
        const refused: WaitlistErrors = {};
        refused[field] = `Tandem's server refused this: ${error.body.message}`;
        setErrors(refused);
        focusFirstProblem();
      } else setFailure(error);
    } finally {
      setSaving(false);
    }
  };

  const failureText =
    failure === null
      ? null
      : serverBack
        ? { title: answeredAgainText(failure).title, detail: "" }
      : failure instanceof ApiError && failure.status === 400
        ? { title: "Tandem's server refused this entry", detail: failure.body.message }
        : failure instanceof ApiError && failure.status === 404
          ? { title: "This entry is no longer on the waitlist", detail: failure.body.message }
          : described;

  return (
    <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} aria-labelledby={`${id}-title`} data-testid="waitlist-form" className="space-y-3 rounded-lg border border-brand-200 bg-white p-3">
      <h2 id={`${id}-title`} className="text-base font-semibold">
        {title}
      </h2>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <div className="min-w-0">
          <label htmlFor={`${id}-type`} className="mb-1 block text-sm font-medium">
            Appointment type
          </label>
          <select
            id={`${id}-type`}
            value={draft.appointmentTypeId}
            onChange={(event) => update({ appointmentTypeId: event.target.value })}
            aria-invalid={errors.appointmentTypeId ? true : undefined}
            aria-describedby={describedBy(errors.appointmentTypeId && `${id}-type-error`)}
            className={`${inputClass} ${borderFor(errors.appointmentTypeId)}`}
          >
            {type ? null : <option value="">Choose a type</option>}
            {appointmentTypes.map((option) => (
              <option key={option.id} value={option.id}>
                {option.name} ({option.defaultDurationMinutes} min)
              </option>
            ))}
          </select>
          <FieldError id={`${id}-type-error`} error={errors.appointmentTypeId} />
        </div>

        <div className="min-w-0">
          <label htmlFor={`${id}-length`} className="mb-1 block text-sm font-medium">
            Slot length (minutes)
          </label>
          <input
            id={`${id}-length`}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            value={draft.slotLength}
            placeholder={typeof defaultLength === "number" ? String(defaultLength) : ""}
            onChange={(event) => update({ slotLength: event.target.value })}
            aria-invalid={errors.slotLength ? true : undefined}
            aria-describedby={describedBy(`${id}-length-hint`, errors.slotLength && `${id}-length-error`)}
            className={`${inputClass} ${borderFor(errors.slotLength)}`}
          />
          <p id={`${id}-length-hint`} className="mt-1 text-xs text-slate-600">
            {typeof defaultLength === "number" ? `Leave empty for the default: ${defaultLength} min${draft.isNewPatient ? " (new patient)" : ""}.` : "Leave empty for the type's default."}
          </p>
          <FieldError id={`${id}-length-error`} error={errors.slotLength} />
          <div className="mt-2 flex items-center gap-2">
            <input id={`${id}-new-patient`} type="checkbox" checked={draft.isNewPatient} onChange={(event) => update({ isNewPatient: event.target.checked })} className="h-4 w-4 shrink-0 accent-brand-700" />
            <label htmlFor={`${id}-new-patient`} className="text-sm font-medium">
              New patient
            </label>
          </div>
        </div>

        <MultiSelectPicker label="Facilities" noun="facilities" options={facilityOptions} selected={draft.facilityIds} onChange={(facilityIds) => update({ facilityIds })} error={errors.facilityIds} />

        <MultiSelectPicker
          label="Providers"
          noun="providers"
          allLabel="Any provider"
          options={providerOptions}
          selected={draft.providerIds}
          onChange={(providerIds) => update({ providerIds })}
          error={errors.providerIds}
          isSearchable
          isLoading={isLoadingProviders}
        />

        <fieldset className="min-w-0">
          <legend className="mb-1 text-sm font-medium">Dates the patient could come</legend>
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
                aria-invalid={errors.startDate ? true : undefined}
                aria-describedby={describedBy(errors.startDate && `${id}-from-error`)}
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
                max={draft.startDate ? addDays(draft.startDate, MAX_WAITLIST_RANGE_DAYS - 1) : undefined}
                onChange={(event) => update({ endDate: event.target.value })}
                aria-invalid={errors.endDate ? true : undefined}
                aria-describedby={describedBy(`${id}-dates-hint`, errors.endDate && `${id}-to-error`)}
                className={`${inputClass} ${borderFor(errors.endDate)}`}
              />
            </div>
          </div>
          <p id={`${id}-dates-hint`} className="mt-1 text-xs text-slate-600">
            Each facility's local dates; at most {MAX_WAITLIST_RANGE_DAYS} days.
          </p>
          <FieldError id={`${id}-from-error`} error={errors.startDate} />
          <FieldError id={`${id}-to-error`} error={errors.endDate} />
        </fieldset>

        <div className="sm:col-span-2 lg:col-span-3">
          <SlotTimeFields value={draft} onChange={(times) => update({ startsFrom: times.startsFrom, startsBefore: times.startsBefore, weekdays: times.weekdays })} error={errors.times} />
        </div>

        <div className="min-w-0 sm:col-span-2 lg:col-span-3">
          <label htmlFor={`${id}-note`} className="mb-1 block text-sm font-medium">
            Note
          </label>
          <textarea
            id={`${id}-note`}
            value={draft.note}
            rows={2}
            onChange={(event) => update({ note: event.target.value })}
            placeholder="Prefers a call after 4 pm"
            aria-invalid={errors.note ? true : undefined}
            aria-describedby={describedBy(`${id}-note-count`, errors.note && `${id}-note-error`)}
            className={`${inputClass} py-1.5 ${borderFor(errors.note)}`}
          />
          <p id={`${id}-note-count`} className="mt-1 text-xs text-slate-600">
            {draft.note.length} of {MAX_WAITLIST_NOTE_LENGTH} characters.
          </p>
          <FieldError id={`${id}-note-error`} error={errors.note} />
        </div>
      </div>

      {failureText ? (
        <div data-testid="waitlist-save-failed">
          <Notice tone={serverBack ? "warning" : "error"} title={failureText.title}>
            {failureText.detail} What you entered is still here{submitLabel === null ? "." : ": save again when you are ready."}
          </Notice>
        </div>
      ) : null}

      <div className="flex flex-wrap gap-2">
        {actionsNote ? (
          <p id={`${id}-actions-note`} data-testid="waitlist-form-actions-note" className="basis-full text-sm font-medium text-amber-900">
            {actionsNote}
          </p>
        ) : null}
        {submitLabel === null ? null : (
          <Button type="submit" disabled={isSaving} aria-describedby={isSaving ? `${id}-saving` : actionsNote ? `${id}-actions-note` : undefined}>
            {isSaving ? "Saving…" : submitLabel}
          </Button>
        )}
        <Button
          variant="secondary"
          onClick={() => {
            forgetDraft(subject);
            onCancel();
          }}
        >
          {submitLabel === null ? "Close" : "Cancel"}
        </Button>
        {isSaving ? (
          <span id={`${id}-saving`} role="status" className="sr-only">
            Saving
          </span>
        ) : null}
      </div>
    </form>
  );
}
