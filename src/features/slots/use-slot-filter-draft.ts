import { useEffect, useRef, useState, type FormEvent } from "react";
import type { SlotSearchQuery } from "#contract/app-api/slots.ts";
import { withoutErrorsOf } from "#src/lib/field-errors.ts";
import { forgetFilterEdits, keepFilterEdits, readFilterEdits, searchBasis } from "./kept-filter-edits.ts";
import { draftOf, errorFieldsChangedBy, filtersFromDraft, isDraftChanged, type SlotFilterDraft, type SlotFilterErrors } from "./slot-filters.ts";
import type { SlotTimeDraft } from "#src/scheduling/slot-time-fields.tsx";
import { sameTimeFilter, timeDraftOf, timeFilterFromDraft, type SlotTimeFilter } from "#src/scheduling/slot-time-filter.ts";

// The slot filter form's edits, kept until Search (never a search per
// keystroke): the draft and its errors, whether it differs from the search
// the list answers, and the submit that checks it and searches. An edit
// clears the errors of the fields it changed. Edits not yet searched are kept
// in the tab (kept-filter-edits.ts): a reload over the same search finds them.

interface SlotFilterDraftInput {
  applied: SlotSearchQuery;
  appliedTime: SlotTimeFilter;
  onSearch: (filters: SlotSearchQuery, time: SlotTimeFilter) => void;
  onChangedChange?: (isChanged: boolean) => void;
  /** The first date a search may start on (a local date). */
  today: string;
}

export function useSlotFilterDraft({ applied, appliedTime, onSearch, onChangedChange, today }: SlotFilterDraftInput) {
  const [basis] = useState(() => searchBasis(applied, appliedTime));
  const [restored] = useState(() => readFilterEdits(basis));
  const [draft, setDraft] = useState<SlotFilterDraft>(() => restored?.draft ?? draftOf(applied));
  const [errors, setErrors] = useState<SlotFilterErrors>({});
  const [timeDraft, setTimeDraft] = useState<SlotTimeDraft>(() => restored?.time ?? timeDraftOf(appliedTime));
  // Kept edits are this form's to keep or forget once it has them: a form that was never edited leaves another's alone.
  const hasEdits = useRef(restored !== null);
  const [timeError, setTimeError] = useState<string | undefined>(undefined);
  // A field changed is no longer known to be wrong: its error goes until the next Search.
  const update = (patch: Partial<SlotFilterDraft>) => {
    hasEdits.current = true;
    setErrors((current) => withoutErrorsOf(current, errorFieldsChangedBy(patch)));
    setDraft((current) => ({ ...current, ...patch }));
  };
  const updateTime = (next: SlotTimeDraft) => {
    hasEdits.current = true;
    setTimeError(undefined);
    setTimeDraft(next);
  };
  const draftTime = timeFilterFromDraft(timeDraft).filter;
  const isChanged = isDraftChanged(draft, applied) || draftTime === null || !sameTimeFilter(draftTime, appliedTime);
  useEffect(() => onChangedChange?.(isChanged), [isChanged, onChangedChange]);
  useEffect(() => {
    if (!hasEdits.current) return;
    if (isChanged) keepFilterEdits({ basis, draft, time: timeDraft });
    else forgetFilterEdits();
  }, [basis, draft, timeDraft, isChanged]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = filtersFromDraft(draft, today);
    const time = timeFilterFromDraft(timeDraft);
    setErrors(result.errors ?? {});
    setTimeError(time.error ?? undefined);
    if (!result.filters || !time.filter) return;
    forgetFilterEdits();
    onSearch(result.filters, time.filter);
  };

  return { draft, update, errors, timeDraft, setTimeDraft: updateTime, timeError, submit };
}
