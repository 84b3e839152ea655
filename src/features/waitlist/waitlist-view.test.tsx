// @vitest-environment happy-dom
import { QueryClient } from "@tanstack/react-query";
import { screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { appointmentTypesResponse, facilitiesResponse, providersResponse, session } from "#contract/app-api/session.ts";
import { waitlistDeleteResponse, waitlistResponse, type WaitlistEntry } from "#contract/app-api/waitlist.ts";
import { queryKeys } from "#src/api/query-keys.ts";
import { switchCacheIdentity } from "#src/api/cache-identity.ts";
import { failure, installFakeBff, ok, type FakeBff } from "#src/testing/fake-bff.ts";
import { renderWithUser } from "#src/testing/render.tsx";
import { forgetWaitlistDrafts } from "#src/scheduling/waitlist/kept-waitlist-draft.ts";
import { forgetEditBases } from "./kept-edit-bases.ts";
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
  bestMatchSearch: "looked",
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
afterEach(() => {
  switchCacheIdentity(new QueryClient(), null);
  forgetWaitlistDrafts();
  forgetEditBases();
});

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

  it("says none fits only when the BFF looked: a failed read of the slots, or a search not made, says so instead (found walking a 429 on the slots)", async () => {
    const entries: WaitlistEntry[] = [
      { ...ENTRY, bestMatch: null, bestMatchSearch: "looked" },
      { ...ENTRY, id: "5e0c2b1a-0000-4000-8000-000000000003", patientName: "Bell, Tom", bestMatch: null, bestMatchSearch: "failed" },
      { ...ENTRY, id: "5e0c2b1a-0000-4000-8000-000000000004", patientName: "Chen, Wei", bestMatch: null, bestMatchSearch: "skipped" },
    ];
    bff.once("GET", "/api/waitlist", ok(waitlistResponse, { entries, offers: [] }));
    renderWithUser(<WaitlistView />);
    const cards = await screen.findAllByTestId("waitlist-entry");
    const said = cards.map((card) => within(card).getByTestId("waitlist-best-match").textContent);
    expect(said[0]).toBe("No free slot fits right now.");
    expect(said[1]).toContain("Could not look for a free slot just now: the clinic data service's slots could not be read.");
    expect(said[2]).toContain("Not looked for in this list");
    expect(said.slice(1).join(" ")).not.toContain("No free slot fits");
  });

  it("opens an entry left mid-edit (another view and back, a reload) in its form again, with what was typed", async () => {
    bff.on("GET", "/api/waitlist", ok(waitlistResponse, { entries: [ENTRY], offers: [] }));
    const first = renderWithUser(<WaitlistView />);
    const entry = await screen.findByTestId("waitlist-entry");
    await first.user.click(within(entry).getByRole("button", { name: "Edit" }));
    const note = within(entry).getByLabelText("Note");
    await first.user.clear(note);
    await first.user.type(note, "Mornings only now");
    first.unmount();

    renderWithUser(<WaitlistView />);
    const again = await screen.findByTestId("waitlist-entry");
    expect(within(again).getByLabelText<HTMLTextAreaElement>("Note").value).toBe("Mornings only now");
    expect(within(again).getByRole("button", { name: "Save changes" })).toBeTruthy();
    expect(screen.queryByTestId("waitlist-entry-changed")).toBeNull();
  });

  it("opened again after leaving mid-edit, still says the entry changed elsewhere since the edit began", async () => {
    bff.once("GET", "/api/waitlist", ok(waitlistResponse, { entries: [ENTRY], offers: [] }));
    const first = renderWithUser(<WaitlistView />);
    const entry = await screen.findByTestId("waitlist-entry");
    await first.user.click(within(entry).getByRole("button", { name: "Edit" }));
    await first.user.type(within(entry).getByLabelText("Note"), "; mornings only");
    first.unmount();

    // A colleague saved it meanwhile.
    const edited = { ...ENTRY, updatedAt: "2026-11-02T15:00:00.000Z", preferences: { ...ENTRY.preferences, note: "Afternoons too" } };
    bff.once("GET", "/api/waitlist", ok(waitlistResponse, { entries: [edited], offers: [] }));
    renderWithUser(<WaitlistView />);
    expect((await screen.findByTestId("waitlist-entry-changed")).textContent).toContain("Ruiz, Ana's entry was changed while you edited it");
    expect(within(screen.getByTestId("waitlist-entry")).getByLabelText<HTMLTextAreaElement>("Note").value).toBe("Prefers a call after 4 pm; mornings only");
  });

  describe("an entry being edited that changes under the form (another tab, a colleague, a booking)", () => {
    const LATER: WaitlistEntry = { ...ENTRY, id: "5e0c2b1a-0000-4000-8000-000000000002", patientName: "Bell, Tom", createdAt: "2026-11-20T15:00:00.000Z" };

    it("stays, with what was typed, when the entry stops waiting, says so, and goes on Close", async () => {
      bff.once("GET", "/api/waitlist", ok(waitlistResponse, { entries: [ENTRY, LATER], offers: [] }));
      const { user, queryClient } = renderWithUser(<WaitlistView />);
      const [entry] = await screen.findAllByTestId("waitlist-entry");
      if (!entry) throw new Error("no entry");
      await user.click(within(entry).getByRole("button", { name: "Edit" }));
      const note = within(entry).getByLabelText("Note");
      await user.clear(note);
      await user.type(note, "Mornings only now");

      // Removed in another tab: the list read again no longer has it.
      bff.once("GET", "/api/waitlist", ok(waitlistResponse, { entries: [LATER], offers: [] }));
      await queryClient.invalidateQueries({ queryKey: queryKeys.waitlist.all });
      const gone = await screen.findByTestId("waitlist-entry-gone");
      expect(gone.textContent).toContain("Ruiz, Ana is no longer on the waitlist");
      const entries = screen.getAllByTestId("waitlist-entry");
      expect(entries.map((shown) => shown.dataset.entryId)).toEqual([ENTRY.id, LATER.id]);
      expect(within(entries[0] as HTMLElement).getByLabelText<HTMLTextAreaElement>("Note").value).toBe("Mornings only now");
      // The form no longer offers to edit an entry that is not there.
      expect(within(entries[0] as HTMLElement).getByRole("heading", { level: 2 }).textContent).toBe("What you typed for Ruiz, Ana");

      // Nothing left to save it to: no Save, only Close.
      expect(within(entries[0] as HTMLElement).queryByRole("button", { name: "Save changes" })).toBeNull();
      expect(within(entries[0] as HTMLElement).getByTestId("waitlist-form-actions-note").textContent).toBe("Nothing to save to: this entry is no longer on the waitlist.");
      await user.click(within(entries[0] as HTMLElement).getByRole("button", { name: "Close" }));
      expect(screen.getAllByTestId("waitlist-entry").map((shown) => shown.dataset.entryId)).toEqual([LATER.id]);
    });

    it("says when the entry was changed elsewhere, and keeps what was typed", async () => {
      bff.once("GET", "/api/waitlist", ok(waitlistResponse, { entries: [ENTRY], offers: [] }));
      const { user, queryClient } = renderWithUser(<WaitlistView />);
      const entry = await screen.findByTestId("waitlist-entry");
      await user.click(within(entry).getByRole("button", { name: "Edit" }));
      const note = within(entry).getByLabelText("Note");
      await user.clear(note);
      await user.type(note, "Mornings only now");
      expect(screen.queryByTestId("waitlist-entry-changed")).toBeNull();

      const edited = { ...ENTRY, updatedAt: "2026-11-02T15:00:00.000Z", preferences: { ...ENTRY.preferences, note: "Afternoons too" } };
      bff.once("GET", "/api/waitlist", ok(waitlistResponse, { entries: [edited], offers: [] }));
      await queryClient.invalidateQueries({ queryKey: queryKeys.waitlist.all });
      expect((await screen.findByTestId("waitlist-entry-changed")).textContent).toContain("Ruiz, Ana's entry was changed while you edited it");
      expect(within(screen.getByTestId("waitlist-entry")).getByLabelText<HTMLTextAreaElement>("Note").value).toBe("Mornings only now");
      // Said above Save as well: on a phone the notice above the form has scrolled away while typing.
      const besideSave = within(screen.getByTestId("waitlist-entry")).getByTestId("waitlist-form-actions-note");
      expect(besideSave.textContent).toBe("Changed elsewhere while you edited: Save replaces that change; Cancel keeps it.");
      expect(within(screen.getByTestId("waitlist-entry")).getByRole("button", { name: "Save changes" }).getAttribute("aria-describedby")).toBe(besideSave.id);
    });

    it("a save that finds the entry gone reads the list again and says so, keeping what was typed", async () => {
      bff.once("GET", "/api/waitlist", ok(waitlistResponse, { entries: [ENTRY], offers: [] }));
      bff.once("PATCH", `/api/waitlist/${ENTRY.id}`, failure(404, { code: "not_found", message: "No such waiting entry: it was removed, booked or its range passed" }));
      const { user } = renderWithUser(<WaitlistView />);
      const entry = await screen.findByTestId("waitlist-entry");
      await user.click(within(entry).getByRole("button", { name: "Edit" }));
      const note = within(entry).getByLabelText("Note");
      await user.clear(note);
      await user.type(note, "Mornings only now");
      bff.once("GET", "/api/waitlist", ok(waitlistResponse, { entries: [], offers: [] }));
      await user.click(within(entry).getByRole("button", { name: "Save changes" }));

      expect((await screen.findByTestId("waitlist-save-failed")).textContent).toContain("This entry is no longer on the waitlist");
      expect((await screen.findByTestId("waitlist-entry-gone")).textContent).toContain("Ruiz, Ana is no longer on the waitlist");
      expect(within(screen.getByTestId("waitlist-entry")).getByLabelText<HTMLTextAreaElement>("Note").value).toBe("Mornings only now");
      expect(screen.queryByTestId("waitlist-empty")).toBeNull();
    });
  });
});
