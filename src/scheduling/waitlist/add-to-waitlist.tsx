import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { memo, useRef, useState } from "react";
import type { SlotSearchQuery } from "#contract/app-api/slots.ts";
import { todayIn } from "#contract/time/zoned-time.ts";
import { contextPatientQuery } from "#src/api/patient-query.ts";
import { queryKeys } from "#src/api/query-keys.ts";
import { sessionQuery } from "#src/api/session-query.ts";
import { addToWaitlist } from "#src/api/waitlist-queries.ts";
import { useBridge } from "#src/bridge/bridge-provider.tsx";
import { Button } from "#src/components/ui/button.tsx";
import { Notice } from "#src/components/ui/notice.tsx";
import { isolateText } from "#src/lib/bidi.ts";
import { useUserTimeSettings } from "#src/lib/use-time-display.tsx";
import { useWaitlistFormOptions } from "./use-waitlist-form-options.ts";
import { canUseWaitlist } from "#contract/app-api/waitlist.ts";
import { WaitlistEntryForm } from "./waitlist-entry-form.tsx";
import { draftFromSearch, type SearchTimes } from "./waitlist-form-model.ts";

// "Add to waitlist" in the slot finder (issue 38): with a patient open in the
// EHR, a front-desk user or scheduler puts them on the organization's
// waitlist with what they asked for, the form starting from the search on
// screen (type, length, new patient, facilities, providers, dates, times of
// day and weekdays) plus a note. The patient is the host token's: the BFF
// takes it from there, never from this form.

export interface AddToWaitlistProps {
  /** The search the form starts from (the filters on screen); null while they resolve. */
  search: SlotSearchQuery | null;
  /** The "Times and days" on screen. */
  times: SearchTimes;
}

export const AddToWaitlist = memo(function AddToWaitlist({ search, times }: AddToWaitlistProps) {
  const { context } = useBridge();
  const session = useQuery(sessionQuery());
  const patientId = context.patientId ?? null;
  const canRead = session.data?.capabilities.canReadPatients ?? false;
  const patient = useQuery({ ...contextPatientQuery(patientId ?? ""), enabled: patientId !== null && canRead });
  const options = useWaitlistFormOptions();
  const { userZone } = useUserTimeSettings();
  const queryClient = useQueryClient();
  const [stage, setStage] = useState<"closed" | "open" | "added">("closed");
  const openRow = useRef<HTMLDivElement>(null);

  if (!session.data || !canUseWaitlist(session.data.user.roles) || patientId === null || search === null) return null;
  const patientName = patient.data ? isolateText(`${patient.data.patient.lastName}, ${patient.data.patient.firstName}`) : null;
  const who = patientName ?? "this patient";
  const zone = options.zoneOf(search.facilityIds?.[0] ?? "") ?? userZone;
  const subject = `add.${patientId}`;

  if (stage === "open") {
    return (
      <WaitlistEntryForm
        title={`Add ${who} to the waitlist`}
        subject={subject}
        initial={draftFromSearch(search, times)}
        options={options}
        today={todayIn(zone, Date.now())}
        submitLabel="Add to waitlist"
        onSave={async (preferences) => {
          await addToWaitlist(preferences);
          void queryClient.invalidateQueries({ queryKey: queryKeys.waitlist.all });
          setStage("added");
        }}
        onCancel={() => {
          setStage("closed");
          requestAnimationFrame(() => openRow.current?.querySelector("button")?.focus());
        }}
      />
    );
  }
  if (stage === "added") {
    return (
      <div data-testid="waitlist-added">
        <Notice
          tone="info"
          title={`${patientName ?? "The patient"} is on the waitlist`}
          actions={
            <>
              <Link to="/waitlist" className="inline-flex min-h-9 items-center rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-100">
                Open the waitlist
              </Link>
              <Button variant="ghost" onClick={() => setStage("closed")}>
                Dismiss
              </Button>
            </>
          }
        >
          When a cancellation frees a slot that fits, every front-desk colleague and scheduler with Tandem open is told at once.
        </Notice>
      </div>
    );
  }
  return (
    <div ref={openRow} className="flex flex-wrap items-center gap-2">
      <Button variant="secondary" data-testid="add-to-waitlist" onClick={() => setStage("open")}>
        Add to waitlist
      </Button>
      <span className="text-sm text-slate-700">Nothing that suits {who}? Add them to the waitlist with this search.</span>
    </div>
  );
});
