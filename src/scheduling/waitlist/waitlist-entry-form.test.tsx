// @vitest-environment happy-dom
import { QueryClient } from "@tanstack/react-query";
import { act, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_WAITLIST_RANGE_DAYS, type WaitlistPreferences } from "#contract/app-api/waitlist.ts";
import { ApiError } from "#src/api/bff-client.ts";
import { reportBffAnswered } from "#src/api/bff-reachability.ts";
import { switchCacheIdentity } from "#src/api/cache-identity.ts";
import { renderWithUser } from "#src/testing/render.tsx";
import { WaitlistEntryForm, type WaitlistEntryFormProps } from "./waitlist-entry-form.tsx";
import { draftFromSearch } from "./waitlist-form-model.ts";

// The waitlist form as the front desk meets it: a problem named at its field
// (the focus taken there), a failed save that names the system and keeps
// everything typed, and a draft still there after the form was left.

const FOLLOW_UP = { id: "atp_dddddddddddddddddddddddddddddddd", name: "Follow-up", abbreviation: "FU", defaultDurationMinutes: 20, newPatientDurationMinutes: 40 };
const OPTIONS: WaitlistEntryFormProps["options"] = {
  appointmentTypes: [FOLLOW_UP],
  facilityOptions: [{ value: "fac_11111111111111111111111111111111", label: "Upper West Side" }],
  providerOptions: [{ value: "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", label: "Dr. Jacob Brooks, MD" }],
  isLoadingProviders: false,
  zoneOf: () => "America/New_York",
};
const SEARCH = { appointmentTypeId: FOLLOW_UP.id, facilityIds: ["fac_11111111111111111111111111111111"], startDate: "2026-12-01", endDate: "2026-12-14", isNewPatient: false };

function renderForm(onSave: (preferences: WaitlistPreferences) => Promise<void>, subject = "add.pat_ana") {
  return renderWithUser(
    <WaitlistEntryForm
      title="Add Ruiz, Ana to the waitlist"
      subject={subject}
      initial={draftFromSearch(SEARCH, { startsFrom: null, startsBefore: "12:00", weekdays: [1] })}
      options={OPTIONS}
      today="2026-12-01"
      submitLabel="Add to waitlist"
      onSave={onSave}
      onCancel={() => undefined}
    />,
  );
}

beforeEach(() => switchCacheIdentity(new QueryClient(), { organizationId: "org_a", userId: "front-desk" }));
afterEach(() => {
  switchCacheIdentity(new QueryClient(), null);
  window.sessionStorage.clear();
});

describe("WaitlistEntryForm", () => {
  it("starts from the search with its times and days, and sends the preferences with the note", async () => {
    const onSave = vi.fn((_preferences: WaitlistPreferences) => Promise.resolve());
    const { user } = renderForm(onSave, "add.pat_first");
    expect(screen.getByRole("group", { name: "Times of day" }).querySelector('[aria-pressed="true"]')?.textContent).toBe("Mornings");
    expect(screen.getByRole("button", { name: "Tue", pressed: true })).toBeTruthy();
    await user.type(screen.getByLabelText("Note"), "Prefers a call after 4 pm");
    await user.click(screen.getByRole("button", { name: "Add to waitlist" }));
    expect(onSave).toHaveBeenCalledWith({
      appointmentTypeId: FOLLOW_UP.id,
      slotLengthMinutes: 20,
      isNewPatient: false,
      facilityIds: ["fac_11111111111111111111111111111111"],
      providerIds: null,
      startDate: "2026-12-01",
      endDate: "2026-12-14",
      startsFrom: null,
      startsBefore: "12:00",
      days: ["tue"],
      note: "Prefers a call after 4 pm",
    });
  });

  it("names the date past the range limit at its field, takes the focus there, and sends nothing", async () => {
    const onSave = vi.fn((_preferences: WaitlistPreferences) => Promise.resolve());
    const { user } = renderForm(onSave, "add.pat_range");
    const to = screen.getByLabelText("To");
    fireEvent.change(to, { target: { value: "2027-06-30" } });
    await user.click(screen.getByRole("button", { name: "Add to waitlist" }));
    expect(await screen.findByText(new RegExp(`^The dates may span at most ${MAX_WAITLIST_RANGE_DAYS} days`))).toBeTruthy();
    await vi.waitFor(() => expect(document.activeElement).toBe(to));
    expect(to.getAttribute("aria-invalid")).toBe("true");
    expect(onSave).not.toHaveBeenCalled();
    // Put right, the date is no longer said to be wrong, before any new check.
    fireEvent.change(to, { target: { value: "2026-12-14" } });
    expect(screen.queryByText(new RegExp(`^The dates may span at most ${MAX_WAITLIST_RANGE_DAYS} days`))).toBeNull();
    expect(to.getAttribute("aria-invalid")).toBeNull();
  });

  it("keeps everything typed when the save fails, names Tandem's server, and saves on the next try", async () => {
    const onSave = vi
      .fn<(preferences: WaitlistPreferences) => Promise<void>>()
      .mockRejectedValueOnce(new ApiError(503, { code: "store_unavailable", message: "Tandem's store did not answer in time", trace_id: "tdm_1" }))
      .mockResolvedValueOnce(undefined);
    const { user } = renderForm(onSave, "add.pat_fail");
    await user.type(screen.getByLabelText("Note"), "Mornings only, mobile 555-0100");
    await user.click(screen.getByRole("button", { name: "Add to waitlist" }));
    const failed = await screen.findByTestId("waitlist-save-failed");
    expect(failed.textContent).toContain("Tandem's server is having trouble");
    expect(failed.textContent).toContain("What you entered is still here");
    expect(screen.getByLabelText<HTMLTextAreaElement>("Note").value).toBe("Mornings only, mobile 555-0100");
    await user.click(screen.getByRole("button", { name: "Add to waitlist" }));
    expect(onSave).toHaveBeenCalledTimes(2);
    await vi.waitFor(() => expect(screen.queryByTestId("waitlist-save-failed")).toBeNull());
  });

  it("says Tandem is active again once any call of the app is answered after a save refused as Tandem was not active", async () => {
    const onSave = vi
      .fn<(preferences: WaitlistPreferences) => Promise<void>>()
      .mockRejectedValueOnce(new ApiError(403, { code: "installation_inactive", message: "Tandem's installation for this organization is uninstalled", trace_id: "tdm_2" }))
      .mockResolvedValueOnce(undefined);
    const { user } = renderForm(onSave, "add.pat_inactive");
    await user.type(screen.getByLabelText("Note"), "Afternoons");
    await user.click(screen.getByRole("button", { name: "Add to waitlist" }));
    const failed = await screen.findByTestId("waitlist-save-failed");
    expect(failed.textContent).toContain("Tandem is not active for this organization");
    act(() => reportBffAnswered());
    await vi.waitFor(() => expect(failed.textContent).toContain("Tandem is active again"));
    expect(failed.textContent).not.toContain("not active");
    expect(failed.textContent).toContain("What you entered is still here");
  });

  it("says Tandem's server is answering again once any call of the app reaches it, instead of that it could not be reached", async () => {
    const onSave = vi
      .fn<(preferences: WaitlistPreferences) => Promise<void>>()
      .mockRejectedValueOnce(new TypeError("Failed to fetch"))
      .mockResolvedValueOnce(undefined);
    const { user } = renderForm(onSave, "add.pat_down");
    await user.type(screen.getByLabelText("Note"), "Afternoons");
    await user.click(screen.getByRole("button", { name: "Add to waitlist" }));
    const failed = await screen.findByTestId("waitlist-save-failed");
    expect(failed.textContent).toContain("Tandem could not reach its server");
    act(() => reportBffAnswered());
    await vi.waitFor(() => expect(failed.textContent).toContain("Tandem's server is answering again"));
    expect(failed.textContent).not.toContain("could not reach");
    expect(failed.textContent).toContain("What you entered is still here: save again when you are ready.");
    await user.click(screen.getByRole("button", { name: "Add to waitlist" }));
    expect(onSave).toHaveBeenCalledTimes(2);
    await vi.waitFor(() => expect(screen.queryByTestId("waitlist-save-failed")).toBeNull());
  });

  it("puts a field the BFF refused at that field", async () => {
    const onSave = vi.fn((_preferences: WaitlistPreferences) => Promise.reject(new ApiError(400, { code: "invalid_request", message: "preferences.providerIds: unknown provider", trace_id: "tdm_2" })));
    const { user } = renderForm(onSave, "add.pat_refused");
    await user.click(screen.getByRole("button", { name: "Add to waitlist" }));
    expect(await screen.findByText("Tandem's server refused this: preferences.providerIds: unknown provider")).toBeTruthy();
  });

  it("finds the draft again when the form is opened again before it was saved", async () => {
    const first = renderForm(() => Promise.resolve(), "add.pat_kept");
    await first.user.type(screen.getByLabelText("Note"), "Call after 4");
    first.unmount();
    renderForm(() => Promise.resolve(), "add.pat_kept");
    expect(screen.getByLabelText<HTMLTextAreaElement>("Note").value).toBe("Call after 4");
  });
});
