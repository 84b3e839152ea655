// @vitest-environment happy-dom
import { QueryClient } from "@tanstack/react-query";
import { screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { holdResponse, slotCheckResponse } from "#contract/app-api/slots.ts";
import { waitlistResponse, type WaitlistOffer } from "#contract/app-api/waitlist.ts";
import { switchCacheIdentity } from "#src/api/cache-identity.ts";
import { queryKeys } from "#src/api/query-keys.ts";
import { receiveLiveOffer } from "#src/api/waitlist-offers-store.ts";
import { failure, installFakeBff, ok, type FakeBff } from "#src/testing/fake-bff.ts";
import { renderWithUser } from "#src/testing/render.tsx";
import { WaitlistOffersAlert } from "./waitlist-offers-alert.tsx";
import { waitlistUserSession } from "./testing/waitlist-session.ts";

// The waitlist's alert as a front-desk user meets it, the BFF faked at the
// network edge: an offer from the list or a live event, one button per
// patient that checks the slot live and holds it from the offer (the hold
// joins the user's holds), a colleague's hold said once the list is read
// again, a colleague first refused in the BFF's words, dismissed for good.

const added = vi.hoisted(() => vi.fn());
vi.mock("#src/scheduling/holds-provider.tsx", () => ({ useHolds: () => ({ controller: { added } }) }));
vi.mock("#src/scheduling/use-slot-describer.ts", () => ({
  useSlotDescriber: () => ({
    describe: {
      providerName: (id: string) => (id === "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" ? "Dr. Jacob Brooks, MD" : id === "prv_cccccccccccccccccccccccccccccccc" ? "Mia Lopez" : "Unlisted provider"),
      facilityName: () => "Upper West Side",
      appointmentTypeName: () => "Follow-up",
    },
    zoneOf: () => "America/New_York",
    reader: { locale: "en-US", userZone: "America/Chicago" },
  }),
}));

const ANA = "5e0c2b1a-0000-4000-8000-000000000001";
const WEI = "5e0c2b1a-0000-4000-8000-000000000002";
const OFFER: WaitlistOffer = {
  id: "7a1c2b1a-0000-4000-8000-000000000009",
  slot: { providerId: "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", facilityId: "fac_11111111111111111111111111111111", startsAt: "2099-12-08T10:00:00-05:00", endsAt: "2099-12-08T10:20:00-05:00" },
  appointmentTypeId: "atp_dddddddddddddddddddddddddddddddd",
  slotLengthMinutes: 20,
  isNewPatient: false,
  matches: [
    { entryId: ANA, patientId: "pat_ana", patientName: "Ana Ruiz", waitingSince: "2020-01-01T15:00:00.000Z" },
    { entryId: WEI, patientId: "pat_wei", patientName: "Wei Chen", waitingSince: "2020-01-04T15:00:00.000Z" },
  ],
  freedAt: "2026-12-07T15:00:00.000Z",
  takenBy: null,
};
const META = { sourceSyncedAt: "2026-12-07T15:00:01.000Z", sourceKind: "ehr_kind_a", maxStalenessSeconds: 0, strongConsistency: true, strategy: "ehr_live", completeness: "complete", generatedAt: "2026-12-07T15:00:01.000Z" };
const SESSION = waitlistUserSession("Front Desk");

const listed = (offers: WaitlistOffer[]) => ok(waitlistResponse, { entries: [], offers });
const HELD = {
  hold: { id: "hold-1", status: "active", expiresAt: "2099-12-07T15:10:00.000Z" },
  held: { id: "hold-1", slot: OFFER.slot, appointmentTypeId: OFFER.appointmentTypeId, slotLengthMinutes: 20, isNewPatient: false, patientId: "pat_ana", patientName: "Ana Ruiz", expiresAt: "2099-12-07T15:10:00.000Z", heldAt: "2099-12-07T15:00:00.000Z" },
};

let bff: FakeBff;

beforeEach(() => {
  switchCacheIdentity(new QueryClient(), { organizationId: "org_a", userId: "front-desk" });
  bff = installFakeBff();
  added.mockClear();
});
afterEach(() => switchCacheIdentity(new QueryClient(), null));

describe("WaitlistOffersAlert", () => {
  it("shows a listed offer's sentence, holds it for the chosen patient from the offer after a live check, and says a colleague's hold once the list says so", async () => {
    bff.once("GET", "/api/waitlist", listed([OFFER]));
    bff.on("POST", "/api/slots/check", ok(slotCheckResponse, { available: true, slot: { ...OFFER.slot, remainingCapacity: 1, templateIds: [] }, alternatives: [], meta: META }));
    bff.on("POST", "/api/holds", ok(holdResponse, HELD));
    const { user, queryClient } = renderWithUser(<WaitlistOffersAlert session={SESSION} />);

    const offer = await screen.findByTestId("waitlist-offer");
    expect(within(offer).getByTestId("waitlist-offer-text").textContent).toMatch(/^Tue, Dec 8, 10:00\sAM EST with Dr\. Jacob Brooks, MD freed: 2 waitlisted patients fit: Ana Ruiz \(waiting \d+ days\), Wei Chen \(\d+ days\)$/);
    await user.click(within(offer).getByRole("button", { name: "Hold for Ana Ruiz" }));
    expect(await within(offer).findByText(/^Held for Ana Ruiz\. Book it in the EHR/)).toBeTruthy();
    expect(bff.calls("POST", "/api/holds").map((call) => call.body)).toEqual([
      { providerId: OFFER.slot.providerId, facilityId: OFFER.slot.facilityId, startsAt: OFFER.slot.startsAt, endsAt: OFFER.slot.endsAt, appointmentTypeId: OFFER.appointmentTypeId, slotLengthMinutes: 20, isNewPatient: false, fromWaitlist: { offerId: OFFER.id, entryId: ANA } },
    ]);
    expect(bff.calls("POST", "/api/slots/check")).toHaveLength(1);
    expect(added).toHaveBeenCalledWith(expect.objectContaining({ response: HELD }));

    // Another tab of a colleague's: the list read again after `waitlist.changed` names who held it.
    bff.once("GET", "/api/waitlist", listed([{ ...OFFER, takenBy: { userId: "prv_cccccccccccccccccccccccccccccccc", entryId: WEI, at: "2099-12-07T15:02:00.000Z" } }]));
    await queryClient.invalidateQueries({ queryKey: queryKeys.waitlist.all });
    expect(await within(offer).findByTestId("waitlist-offer-taken")).toBeTruthy();
    expect(within(offer).getByTestId("waitlist-offer-taken").textContent).toMatch(/^Held for Wei Chen by Mia Lopez at 10:02\sAM EST\.$/);
    expect(within(offer).queryByRole("button", { name: /^Hold for/ })).toBeNull();
  });

  it("holds for the second patient the offer fits when that one is chosen: the hold names Wei's entry and says Wei", async () => {
    bff.on("GET", "/api/waitlist", listed([OFFER]));
    bff.on("POST", "/api/slots/check", ok(slotCheckResponse, { available: true, slot: { ...OFFER.slot, remainingCapacity: 1, templateIds: [] }, alternatives: [], meta: META }));
    bff.on("POST", "/api/holds", ok(holdResponse, { ...HELD, held: { ...HELD.held, patientId: "pat_wei", patientName: "Wei Chen" } }));
    const { user } = renderWithUser(<WaitlistOffersAlert session={SESSION} />);
    const offer = await screen.findByTestId("waitlist-offer");
    await user.click(within(offer).getByRole("button", { name: "Hold for Wei Chen" }));
    expect(await within(offer).findByText(/^Held for Wei Chen\. Book it in the EHR/)).toBeTruthy();
    expect(bff.calls("POST", "/api/holds").map((call) => call.body)).toEqual([expect.objectContaining({ fromWaitlist: { offerId: OFFER.id, entryId: WEI } })]);
  });

  it("shows a live offer at once, says so to a screen reader, and once dismissed it stays away", async () => {
    bff.on("GET", "/api/waitlist", listed([]));
    const { user } = renderWithUser(<WaitlistOffersAlert session={SESSION} />);
    await vi.waitFor(() => expect(bff.calls("GET", "/api/waitlist")).toHaveLength(1));
    const live = { ...OFFER, id: "7a1c2b1a-0000-4000-8000-000000000010" };
    receiveLiveOffer({ organizationId: "org_a", userId: "front-desk" }, live);
    const offer = await screen.findByTestId("waitlist-offer");
    expect(offer.getAttribute("data-status")).toBe("open");
    await vi.waitFor(() => expect(screen.getByTestId("waitlist-offer-announcement").textContent).toMatch(/^Waitlist: Tue, Dec 8/));
    await user.click(within(offer).getByRole("button", { name: /^Dismiss/ }));
    expect(screen.queryByTestId("waitlist-offer")).toBeNull();
    receiveLiveOffer({ organizationId: "org_a", userId: "front-desk" }, live);
    expect(screen.queryByTestId("waitlist-offer")).toBeNull();
  });

  it("says in the BFF's words that a colleague held it from the waitlist first, and holds nothing", async () => {
    bff.on("GET", "/api/waitlist", listed([OFFER]));
    bff.on("POST", "/api/slots/check", ok(slotCheckResponse, { available: true, slot: { ...OFFER.slot, remainingCapacity: 1, templateIds: [] }, alternatives: [], meta: META }));
    bff.on("POST", "/api/holds", failure(409, { code: "waitlist_offer_taken", message: "This slot was already held from the waitlist by a colleague" }));
    const { user } = renderWithUser(<WaitlistOffersAlert session={SESSION} />);
    const offer = await screen.findByTestId("waitlist-offer");
    await user.click(within(offer).getByRole("button", { name: "Hold for Wei Chen" }));
    expect((await within(offer).findByRole("alert")).textContent).toBe("This slot was already held from the waitlist by a colleague");
    expect(added).not.toHaveBeenCalled();
  });

  it("shows nothing to a clinical role", () => {
    renderWithUser(<WaitlistOffersAlert session={{ ...SESSION, user: { ...SESSION.user, roles: ["Physician"] } }} />);
    expect(screen.queryByTestId("waitlist-offers")).toBeNull();
    expect(bff.calls("GET", "/api/waitlist")).toEqual([]);
  });
});
