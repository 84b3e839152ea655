import { useState } from "react";
import type { WaitlistEntry } from "#contract/app-api/waitlist.ts";
import { todayIn } from "#contract/time/zoned-time.ts";
import { ApiError } from "#src/api/bff-client.ts";
import { removeWaitlistEntry, updateWaitlistEntry } from "#src/api/waitlist-queries.ts";
import { useApiErrorDescription } from "#src/components/shell/api-error-notice.tsx";
import { Badge } from "#src/components/ui/badge.tsx";
import { Button } from "#src/components/ui/button.tsx";
import { Notice } from "#src/components/ui/notice.tsx";
import { useSlotDescriber } from "#src/scheduling/use-slot-describer.ts";
import { useWaitlistFormOptions } from "#src/scheduling/waitlist/use-waitlist-form-options.ts";
import { WaitlistEntryForm } from "#src/scheduling/waitlist/waitlist-entry-form.tsx";
import { draftFromPreferences } from "#src/scheduling/waitlist/waitlist-form-model.ts";
import { useNow } from "#src/lib/use-now.ts";
import { addedText, daysWaiting, facilitiesText, offerSlotText, patientNameText, providersText, waitingText, whenText } from "./waitlist-text.ts";

// One waiting patient on the Waitlist view: who, for what, since when, the
// earliest free slot that fits now, the note; edited in place (the same form
// the slot finder adds with) or removed after a second click. An entry being
// edited that changes or stops waiting under the form (another tab, a
// colleague, a booking) keeps the form and what was typed, and says so.

export interface WaitlistEntryCardProps {
  /** As listed now, or as last listed when it is `gone`. */
  entry: WaitlistEntry;
  /** The signed-in user (the session's `user.id`), who reads "Added by you". */
  viewerId: string;
  /** The entry as the edit form started from it; undefined when not being edited. */
  editedFrom: WaitlistEntry | undefined;
  /** No longer waiting (removed, booked, its range passed) while being edited. */
  gone: boolean;
  onEdit: (editing: boolean) => void;
  onChanged: () => void;
}

/** Whose draft an entry's edit form keeps (kept-waitlist-draft.ts). */
export const editSubjectOf = (entryId: string) => `edit.${entryId}`;

/** What a card says without a best match: only a search that looked may say none fits. */
const NO_MATCH_TEXT: Record<WaitlistEntry["bestMatchSearch"], string> = {
  looked: "No free slot fits right now.",
  failed: "Could not look for a free slot just now: the clinic data service's slots could not be read. Open the slot finder to search.",
  skipped: "Not looked for in this list, which looks for the longest-waiting patients' searches first. Open the slot finder to search.",
};

export function WaitlistEntryCard({ entry, viewerId, editedFrom, gone, onEdit, onChanged }: WaitlistEntryCardProps) {
  const { describe, zoneOf, reader } = useSlotDescriber();
  const options = useWaitlistFormOptions();
  const nowMs = useNow(60_000);
  const [mode, setMode] = useState<"view" | "confirmRemove" | "removing">("view");
  const [removeError, setRemoveError] = useState<unknown>(null);
  const removeFailure = useApiErrorDescription(removeError, "write");
  const { preferences } = entry;
  const zone = zoneOf(preferences.facilityIds[0] ?? "");
  const name = patientNameText(entry.patientName);
  const titleId = `waitlist-entry-${entry.id}`;

  if (editedFrom) {
    const changedElsewhere = !gone && entry.updatedAt !== editedFrom.updatedAt;
    return (
      <li data-testid="waitlist-entry" data-entry-id={entry.id} className="space-y-2">
        {gone ? (
          <div data-testid="waitlist-entry-gone">
            <Notice tone="warning" title={`${name} is no longer on the waitlist`}>
              It was removed, booked or its dates passed while you edited it (in another tab, by a colleague, or in the EHR). There is nothing left to save your changes to; what you typed stays below until you close it.
            </Notice>
          </div>
        ) : changedElsewhere ? (
          <div data-testid="waitlist-entry-changed">
            <Notice tone="warning" title={`${name}'s entry was changed while you edited it`}>
              Changed in another tab or by a colleague. Saving replaces that change with what you have here; Cancel keeps theirs.
            </Notice>
          </div>
        ) : null}
        <WaitlistEntryForm
          title={gone ? `What you typed for ${name}` : `Edit what ${name} is waiting for`}
          subject={editSubjectOf(entry.id)}
          initial={draftFromPreferences(editedFrom.preferences)}
          options={options}
          today={todayIn(zone, nowMs)}
          submitLabel={gone ? null : "Save changes"}
          actionsNote={gone ? "Nothing to save to: this entry is no longer on the waitlist." : changedElsewhere ? "Changed elsewhere while you edited: Save replaces that change; Cancel keeps it." : null}
          onSave={async (next) => {
            try {
              await updateWaitlistEntry(entry.id, next);
            } catch (error) {
              // It stopped waiting before the list said so: read it again, and this card says so.
              if (error instanceof ApiError && error.status === 404) onChanged();
              throw error;
            }
            onEdit(false);
            onChanged();
          }}
          onCancel={() => onEdit(false)}
        />
      </li>
    );
  }

  const remove = async () => {
    setMode("removing");
    setRemoveError(null);
    try {
      await removeWaitlistEntry(entry.id);
      onChanged();
    } catch (error) {
      setRemoveError(error);
      setMode("view");
    }
  };

  const match = entry.bestMatch;
  return (
    <li data-testid="waitlist-entry" data-entry-id={entry.id} aria-labelledby={titleId} className="rounded-lg border border-slate-200 bg-white p-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        {/* At least 18rem before Edit and Remove sit beside it: on a narrow frame they go below, not squeeze the text. */}
        <div className="min-w-0 grow basis-72 space-y-1">
          <h2 id={titleId} className="text-base font-semibold">
            <span data-testid="waitlist-entry-patient">{name}</span> <Badge className="ml-1">{waitingText(daysWaiting(entry.createdAt, nowMs, zone))}</Badge>
          </h2>
          <p className="text-sm">
            <span className="font-medium">{describe.appointmentTypeName(preferences)}</span>, {preferences.slotLengthMinutes} minutes, with {providersText(preferences.providerIds, describe.providerName)}
          </p>
          <p className="text-sm text-slate-700">
            {facilitiesText(preferences.facilityIds, describe.facilityName)} · {whenText(preferences, reader.locale)}
          </p>
          {preferences.note ? (
            <p className="text-sm" data-user-text="">
              <span className="sr-only">Note: </span>“{preferences.note}”
            </p>
          ) : null}
          <p className="text-xs text-slate-600">
            {addedText(entry, viewerId, describe.providerName, { ...reader, zone }, nowMs)}
          </p>
          <p className="text-sm" data-testid="waitlist-best-match">
            {match ? (
              <>
                <span className="font-medium">Earliest fit now:</span> {offerSlotText(match, describe.providerName(match.slot.providerId), { ...reader, zone: zoneOf(match.slot.facilityId) })} · {describe.facilityName(match.slot.facilityId)}
              </>
            ) : (
              <span className="text-slate-700">{NO_MATCH_TEXT[entry.bestMatchSearch]}</span>
            )}
          </p>
        </div>
        {mode === "view" ? (
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" aria-describedby={titleId} onClick={() => onEdit(true)}>
              Edit
            </Button>
            <Button variant="secondary" aria-describedby={titleId} onClick={() => setMode("confirmRemove")}>
              Remove
            </Button>
          </div>
        ) : null}
      </div>
      {mode === "confirmRemove" || mode === "removing" ? (
        <div role="group" aria-label={`Remove ${name} from the waitlist?`} className="mt-2 flex flex-wrap items-center gap-2 rounded-md bg-slate-50 p-2">
          <span className="text-sm">Remove {name} from the waitlist?</span>
          <Button onClick={() => void remove()} disabled={mode === "removing"}>
            {mode === "removing" ? "Removing…" : "Remove from waitlist"}
          </Button>
          <Button variant="secondary" onClick={() => setMode("view")} disabled={mode === "removing"}>
            Keep waiting
          </Button>
        </div>
      ) : null}
      {removeError ? (
        <div className="mt-2">
          <Notice tone="error" title={removeFailure.title}>
            {removeFailure.detail} {name} is still on the waitlist.
          </Notice>
        </div>
      ) : null}
    </li>
  );
}
