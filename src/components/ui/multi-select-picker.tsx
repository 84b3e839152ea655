import { Checkbox, Popover } from "radix-ui";
import { useId, useMemo, useState } from "react";
import { idKey } from "#contract/ids.ts";
import { CheckIcon, ChevronDownIcon, CrossIcon } from "./icons.tsx";

// A multi-select with a search box: Radix Popover (focus management, Escape,
// outside click, collision with the iframe's edges) and Radix Checkbox, styled
// here. The trigger names the field and the current choice; each option is a
// labelled checkbox.

export interface PickerOption {
  value: string;
  label: string;
  /** A second line (role, city). */
  detail?: string;
}

interface MultiSelectPickerProps {
  label: string;
  options: PickerOption[];
  selected: string[];
  onChange: (selected: string[]) => void;
  /** What an empty choice means ("All providers"); without it, an empty choice is "None chosen". */
  allLabel?: string;
  /** Plural noun for the trigger ("3 providers"). */
  noun: string;
  isSearchable?: boolean;
  error?: string | undefined;
  isLoading?: boolean;
  /** At most this many may be chosen: once reached, the others are disabled, and "Select all" while there are more options. */
  maxSelected?: number | undefined;
  /** Why there is a maximum, shown under the field (and in the list) while it binds. */
  limitHint?: string | undefined;
}

const matches = (option: PickerOption, search: string) => {
  const needle = search.trim().toLowerCase();
  return needle === "" || option.label.toLowerCase().includes(needle) || (option.detail ?? "").toLowerCase().includes(needle);
};

export function MultiSelectPicker({ label, options, selected, onChange, allLabel, noun, isSearchable = false, error, isLoading = false, maxSelected, limitHint }: MultiSelectPickerProps) {
  const id = useId();
  const [search, setSearch] = useState("");
  // Ids compare in either form (a shared link may carry `fac_…` where the picker lists raw UUIDs).
  const selectedSet = useMemo(() => new Set(selected.map(idKey)), [selected]);
  const visible = useMemo(() => options.filter((option) => matches(option, search)), [options, search]);
  const chosen = useMemo(() => options.filter((option) => selectedSet.has(idKey(option.value))), [options, selectedSet]);
  const summary =
    selected.length === 0 ? (allLabel ?? "None chosen") : chosen.length === 1 ? (chosen[0]?.label ?? `1 ${noun}`) : `${selected.length} ${noun}`;

  const isFull = maxSelected !== undefined && selectedSet.size >= maxSelected;
  const canSelectAll = maxSelected === undefined || options.length <= maxSelected;
  const describedBy = [limitHint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;

  const toggle = (value: string, isChecked: boolean) => {
    const others = selected.filter((candidate) => idKey(candidate) !== idKey(value));
    onChange(isChecked ? [...others, value] : others);
  };

  return (
    <div className="min-w-0">
      <span id={`${id}-label`} className="mb-1 block text-sm font-medium">
        {label}
      </span>
      <Popover.Root onOpenChange={(isOpen) => !isOpen && setSearch("")}>
        <Popover.Trigger
          id={`${id}-trigger`}
          aria-labelledby={`${id}-label ${id}-trigger`}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          disabled={isLoading}
          className={`flex min-h-9 w-full min-w-0 items-center justify-between gap-2 rounded-md border bg-white px-3 text-left text-sm hover:bg-slate-50 disabled:text-slate-400 ${error ? "border-red-600" : "border-slate-300"}`}
        >
          <span className="truncate">{isLoading ? "Loading…" : summary}</span>
          <ChevronDownIcon className="h-4 w-4 text-slate-500" />
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content
            align="start"
            sideOffset={4}
            collisionPadding={8}
            data-no-shortcuts=""
            aria-label={`Choose ${noun}`}
            className="z-50 flex max-h-(--radix-popover-content-available-height) w-[min(22rem,calc(100vw-1rem))] flex-col rounded-lg border border-slate-300 bg-white p-2 text-sm text-slate-900 shadow-lg"
          >
            {isSearchable ? (
              <div className="mb-2">
                <label htmlFor={`${id}-search`} className="sr-only">
                  Search {noun}
                </label>
                <input
                  id={`${id}-search`}
                  type="search"
                  value={search}
                  onChange={(event) => setSearch(event.target.value)}
                  placeholder={`Search ${noun}`}
                  autoComplete="off"
                  className="w-full rounded-md border border-slate-300 px-2 py-1.5"
                />
              </div>
            ) : null}
            <div className="mb-1 flex flex-wrap gap-1">
              <button
                type="button"
                className="rounded px-2 py-1 text-xs font-medium text-brand-800 underline hover:bg-slate-100 disabled:text-slate-400 disabled:no-underline"
                disabled={!canSelectAll}
                onClick={() => onChange(options.map((option) => option.value))}
              >
                Select all
              </button>
              <button type="button" className="rounded px-2 py-1 text-xs font-medium text-brand-800 underline hover:bg-slate-100" onClick={() => onChange([])}>
                {allLabel ? `Clear (${allLabel.toLowerCase()})` : "Clear"}
              </button>
            </div>
            {limitHint ? <p className="px-1 pb-1 text-xs text-slate-600">{limitHint}</p> : null}
            <ul aria-label={label} className="max-h-64 min-h-16 shrink overflow-y-auto">
              {visible.map((option) => {
                const optionId = `${id}-${option.value}`;
                const isChecked = selectedSet.has(idKey(option.value));
                return (
                  <li key={option.value} className="flex items-start gap-2 rounded px-1 py-1.5 hover:bg-slate-50">
                    <Checkbox.Root
                      id={optionId}
                      checked={isChecked}
                      disabled={isFull && !isChecked}
                      onCheckedChange={(checked) => toggle(option.value, checked === true)}
                      className="mt-0.5 grid h-4 w-4 shrink-0 place-items-center rounded border border-slate-500 bg-white disabled:border-slate-300 disabled:bg-slate-100 data-[state=checked]:border-brand-700 data-[state=checked]:bg-brand-700"
                    >
                      <Checkbox.Indicator className="text-white">
                        <CheckIcon className="h-3 w-3" />
                      </Checkbox.Indicator>
                    </Checkbox.Root>
                    <label htmlFor={optionId} className={`min-w-0 flex-1 ${isFull && !isChecked ? "cursor-not-allowed text-slate-500" : "cursor-pointer"}`}>
                      <span className="block truncate">{option.label}</span>
                      {option.detail ? <span className="block truncate text-xs text-slate-600">{option.detail}</span> : null}
                    </label>
                  </li>
                );
              })}
              {visible.length === 0 ? <li className="px-1 py-2 text-slate-600">No {noun} match “{search}”.</li> : null}
            </ul>
            <Popover.Close className="mt-2 w-full shrink-0 rounded-md border border-slate-300 px-3 py-1.5 font-medium hover:bg-slate-100">Done</Popover.Close>
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      {limitHint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {limitHint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          <CrossIcon className="mr-1 h-[1em] w-[1em]" />
          {error}
        </p>
      ) : null}
    </div>
  );
}
