import { useQuery, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import type { WaitlistEntry } from "#contract/app-api/waitlist.ts";
import { queryKeys } from "#src/api/query-keys.ts";
import { sessionQuery } from "#src/api/session-query.ts";
import { waitlistQuery } from "#src/api/waitlist-queries.ts";
import { ApiErrorNotice } from "#src/components/shell/api-error-notice.tsx";
import { Notice } from "#src/components/ui/notice.tsx";
import { canUseWaitlist } from "#contract/app-api/waitlist.ts";
import { readKeptDraft } from "#src/scheduling/waitlist/kept-waitlist-draft.ts";
import { editSubjectOf, WaitlistEntryCard } from "./waitlist-entry-card.tsx";
import { WaitlistFrame } from "./waitlist-route-states.tsx";
import { withEntriesBeingEdited } from "./entries-being-edited.ts";
import { forgetEditBase, keepEditBase, readEditBase } from "./kept-edit-bases.ts";

// The organization's waitlist (issue 38), for front-desk and scheduler users:
// who is waiting, for what, since when, and the earliest free slot that fits
// now; each entry edited or removed in place. Read again on every
// `waitlist.changed` (an entry added, edited or ended, or an offer taken, in
// any tab of any colleague).

export function WaitlistView() {
  const session = useQuery(sessionQuery());
  if (!session.data) return null; // the shell renders only with a session
  if (!canUseWaitlist(session.data.user.roles)) {
    return (
      <WaitlistFrame>
        <Notice tone="info" title="The waitlist is for the front desk and schedulers">
          Your role does not include the waitlist. Ask a front-desk colleague or a scheduler.
        </Notice>
      </WaitlistFrame>
    );
  }
  return <WaitlistEntries viewerId={session.data.user.id} />;
}

// The route's loader has read the list (routes/waitlist.tsx); until it has, and when it could not, the route's
// pending and error views stand in (WaitlistPending, WaitlistError). A failed re-read keeps the list on screen.
function WaitlistEntries({ viewerId }: { viewerId: string }) {
  const waitlist = useSuspenseQuery(waitlistQuery());
  const queryClient = useQueryClient();
  const readAgain = () => void queryClient.invalidateQueries({ queryKey: queryKeys.waitlist.all });
  const { entries } = waitlist.data;
  // The entries being edited, as each form started from them: a card being edited stays when its entry stops
  // waiting under it (another tab, a colleague, a booking), so what was typed never vanishes without a word. One
  // left mid-edit (another view, a reload) opens in its form again, with the draft the tab kept.
  const [edits, setEdits] = useState<ReadonlyMap<string, WaitlistEntry>>(
    () => new Map(entries.filter((entry) => readKeptDraft(editSubjectOf(entry.id)) !== null).map((entry) => [entry.id, { ...entry, updatedAt: readEditBase(entry.id) ?? entry.updatedAt }])),
  );
  const setEditing = (entry: WaitlistEntry, editing: boolean) => {
    if (editing) keepEditBase(entry.id, entry.updatedAt);
    else forgetEditBase(entry.id);
    setEdits((current) => {
      const next = new Map(current);
      if (editing) next.set(entry.id, entry);
      else next.delete(entry.id);
      return next;
    });
  };
  const shown = withEntriesBeingEdited(entries, edits);
  return (
    <WaitlistFrame count={entries.length}>
      {waitlist.isError ? <ApiErrorNotice error={waitlist.error} onRetry={() => void waitlist.refetch()} /> : null}
      {shown.length === 0 ? (
        <div data-testid="waitlist-empty">
          <Notice tone="info" title="No one is waiting">
            With a patient open in the EHR, use <strong>Add to waitlist</strong> in{" "}
            <Link to="/slots" className="font-medium text-brand-800 underline">
              Slots
            </Link>{" "}
            when nothing suits them: when a cancellation frees a slot that fits, everyone on the front desk is told.
          </Notice>
        </div>
      ) : (
        <ul aria-label="Waiting patients, longest waiting first" data-testid="waitlist-entries" className="space-y-2">
          {shown.map(({ entry, gone }) => (
            <WaitlistEntryCard key={entry.id} entry={entry} viewerId={viewerId} editedFrom={edits.get(entry.id)} gone={gone} onEdit={(editing) => setEditing(entry, editing)} onChanged={readAgain} />
          ))}
        </ul>
      )}
    </WaitlistFrame>
  );
}
