import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { SlotDescriber } from "#src/scheduling/use-slot-describer.ts";
import { MaybeHeldSlotCard } from "./maybe-held-slot-card.tsx";
import { MAYBE_HELD } from "./testing/maybe-held.ts";

// Server-rendered markup of a hold the EHR may have made, as the holds bar
// lists it: what it says, not how it looks (Let it go is clicked in e2e
// `holds.spec.ts`).


const describeSlot: SlotDescriber = {
  phrase: () => "10:00 AM with Dr Brooks on Tuesday 1 December",
  time: () => "10:00 AM",
  timeAt: (epochMs) => new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", timeZone: "America/New_York" }).format(epochMs),
  label: () => "",
  day: () => "Tue 1 Dec",
  providerName: () => "Dr Brooks",
  facilityName: () => "Upper West Side",
  appointmentTypeName: () => "Follow-up",
};

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&#x27;", "'")
    .replace(/\s+/g, " ")
    .trim();

describe("MaybeHeldSlotCard", () => {
  it("names the slot, what it was asked as and for whom, says it is not confirmed and when it frees itself, and offers Let it go", () => {
    const html = renderToStaticMarkup(
      <MaybeHeldSlotCard maybeHeld={MAYBE_HELD} describe={describeSlot} patientText="with no patient open" onLetGo={() => Promise.resolve({ released: true })} onFreed={() => undefined} />,
    );
    expect(textOf(html)).toBe(
      "Follow-up, 20 minutes with no patient open 10:00 AM with Dr Brooks on Tuesday 1 December · Upper West Side Let it go Not confirmed: the EHR may have held this slot for you (its answer did not reach Tandem). It frees itself by 10:42 AM at the latest.",
    );
    expect(html).toContain('data-maybe-held-id="0a0a0a0a-0000-4000-8000-000000000001"');
    expect(html).not.toMatch(/Nothing is held|not held/);
  });
});
