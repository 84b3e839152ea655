// @vitest-environment happy-dom
import { QueryClient } from "@tanstack/react-query";
import { screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { appointmentTypesResponse, facilitiesResponse, providersResponse, session } from "#contract/app-api/session.ts";
import { waitlistDeleteResponse, waitlistResponse, type WaitlistEntry } from "#contract/app-api/waitlist.ts";
import { switchCacheIdentity } from "#src/api/cache-identity.ts";
import { installFakeBff, ok, type FakeBff } from "#src/testing/fake-bff.ts";
import { renderWithUser } from "#src/testing/render.tsx";
import { WaitlistView } from "./waitlist-view.tsx";
import { waitlistUserSession } from "./testing/waitlist-session.ts";

// The Waitlist view, the BFF faked at the network edge: a waiting patient
// with what they asked for and the earliest fit, and removal after a second
// click, the list read again. What the route shows before and without the
// list: waitlist-route.test.tsx.

vi.mock("@tanstack/react-router", () => ({ Link: ({ children }: { children: ReactNode }) => <a href="/slots">{children}</a> }));
vi.mock("#src/scheduling/use-slot-describer.ts", () => ({
  useSlotDescriber: () => ({
    describe: {
      providerName: (id: string) => (id === "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" ? "Dr. Jacob Brooks, MD" : "Unlisted provider"),
      facilityName: () => "Upper West Side",
      appointmentTypeName: () => "Follow-up",
    },
    zoneOf: () => "America/New_York",
    reader: { locale: "en-US", userZone: "America/New_York" },
  }),
}));

const SESSION = waitlistUserSession("Scheduler");

const ENTRY: WaitlistEntry = {
  id: "5e0c2b1a-0000-4000-8000-000000000001",
  patientId: "pat_ana",
  patientName: "Ruiz, Ana",
  preferences: {
    appointmentTypeId: "atp_dddddddddddddddddddddddddddddddd",
    slotLengthMinutes: 20,
    isNewPatient: false,
    facilityIds: ["fac_11111111111111111111111111111111"],
    providerIds: ["prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"],
    startDate: "2099-12-01",
    endDate: "2099-12-31",
    startsFrom: null,
    startsBefore: "12:00",
    days: null,
    note: "Prefers a call after 4 pm",
  },
  createdAt: "2026-11-01T15:00:00.000Z",
  createdBy: "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
  updatedAt: "2026-11-01T15:00:00.000Z",
  bestMatch: {
    slot: { providerId: "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", facilityId: "fac_11111111111111111111111111111111", startsAt: "2099-12-08T10:00:00-05:00", endsAt: "2099-12-08T10:20:00-05:00" },
    appointmentTypeId: "atp_dddddddddddddddddddddddddddddddd",
    slotLengthMinutes: 20,
  },
};

let bff: FakeBff;
beforeEach(() => {
  switchCacheIdentity(new QueryClient(), { organizationId: "org_a", userId: "scheduler" });
  bff = installFakeBff();
  bff.on("GET", "/api/session", ok(session, SESSION));
  bff.on("GET", "/api/appointment-types", ok(appointmentTypesResponse, { appointmentTypes: [] }));
  bff.on("GET", "/api/facilities", ok(facilitiesResponse, { facilities: [] }));
  bff.on("GET", "/api/providers", ok(providersResponse, { providers: [] }));
});
afterEach(() => switchCacheIdentity(new QueryClient(), null));

describe("WaitlistView", () => {
  it("shows who waits for what, since when and the earliest fit, and removes an entry after a second click", async () => {
    bff.once("GET", "/api/waitlist", ok(waitlistResponse, { entries: [ENTRY], offers: [] }));
    bff.on("DELETE", `/api/waitlist/${ENTRY.id}`, ok(waitlistDeleteResponse, { ended: "removed" }));
    const { user } = renderWithUser(<WaitlistView />);
    const entry = await screen.findByTestId("waitlist-entry");
    expect(within(entry).getByRole("heading").textContent).toMatch(/^Ruiz, Ana waiting \d+ days$/);
    expect(entry.textContent).toContain("Follow-up, 20 minutes, with Dr. Jacob Brooks, MD");
    expect(entry.textContent).toContain("starting before 12:00");
    expect(entry.textContent).toContain("“Prefers a call after 4 pm”");
    // The year is named once it is not this one.
    expect(entry.textContent).toMatch(/Added by Dr\. Jacob Brooks, MD on Sun, Nov 1(, 2026)?, 10:00\sAM/);
    expect(within(entry).getByTestId("waitlist-best-match").textContent).toMatch(/^Earliest fit now: Tue, Dec 8, 10:00\sAM with Dr\. Jacob Brooks, MD · Upper West Side$/);

    bff.once("GET", "/api/waitlist", ok(waitlistResponse, { entries: [], offers: [] }));
    await user.click(within(entry).getByRole("button", { name: "Remove" }));
    expect(bff.calls("DELETE", `/api/waitlist/${ENTRY.id}`)).toEqual([]);
    await user.click(within(entry).getByRole("button", { name: "Remove from waitlist" }));
    expect(await screen.findByTestId("waitlist-empty")).toBeTruthy();
    expect(bff.calls("DELETE", `/api/waitlist/${ENTRY.id}`)).toHaveLength(1);
  });
});
