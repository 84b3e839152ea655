// @vitest-environment happy-dom
import { act, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { ApiError } from "#src/api/bff-client.ts";
import { reportBffAnswered } from "#src/api/bff-reachability.ts";
import type { SelectionState } from "#src/scheduling/slot-selection-flow.ts";
import { renderWithUser } from "#src/testing/render.tsx";
import { SelectionPanel } from "./selection-panel.tsx";
import { FAKE_DESCRIBER } from "./testing/fake-describer.ts";
import { MAYBE_HELD } from "./testing/maybe-held.ts";

// The slot being chosen, as the holds bar shows it: a gone slot's
// alternatives each name their provider (issue 36 item 9), and a slot the
// user holds already says so (issue 36 item 1).

const MULLER = "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const RUIZ = "prv_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
const slotAt = (providerId: string, startsAt: string): Slot => ({ providerId, facilityId: "fac_11111111111111111111111111111111", startsAt, endsAt: startsAt.replace(":00:00", ":20:00"), remainingCapacity: 1, templateIds: [] });
const TEN = slotAt(MULLER, "2026-12-01T10:00:00-05:00");
const chosen = { slot: TEN, request: { providerId: MULLER, facilityId: TEN.facilityId, startsAt: TEN.startsAt, endsAt: TEN.endsAt, appointmentTypeId: "atp_d" }, params: { appointmentTypeId: "atp_d", isNewPatient: false } };

function renderPanel(state: SelectionState) {
  const onSelect = vi.fn();
  const onCancel = vi.fn();
  return { ...renderWithUser(<SelectionPanel state={state} describe={FAKE_DESCRIBER} onCancel={onCancel} onSelect={onSelect} />), onSelect, onCancel };
}

describe("SelectionPanel", () => {
  it("names the provider of every alternative to a gone slot, the gone slot's own included, and holds the one chosen from the keyboard", async () => {
    const sameProvider = slotAt(MULLER, "2026-12-01T10:30:00-05:00");
    const otherProvider = slotAt(RUIZ, "2026-12-01T11:00:00-05:00");
    const nextDay = slotAt(MULLER, "2026-12-02T09:00:00-05:00");
    const { user, onSelect } = renderPanel({ kind: "gone", ...chosen, alternatives: [sameProvider, otherProvider, nextDay], seenGoneAtMs: 0, ownHold: null, maybeOwn: null });
    expect(screen.getByText("That time was just taken")).toBeTruthy();
    const alternatives = within(screen.getByRole("list")).getAllByRole("button");
    expect(alternatives.map((button) => button.textContent)).toEqual(["10:30 · Dr. Noah Müller, MD", "11:00 · Dr. Ana Ruiz, DO", "Wed 2 Dec, 09:00 · Dr. Noah Müller, MD"]);

    alternatives[1]?.focus();
    await user.keyboard("{Enter}");
    expect(onSelect).toHaveBeenCalledWith(otherProvider);
  });

  it("says a slot the user holds already (from another tab) is theirs, never that it was taken, and Dismiss puts it away", async () => {
    const { user, onCancel } = renderPanel({ kind: "alreadyHeld", ...chosen });
    expect(screen.getByText("You hold this slot already")).toBeTruthy();
    expect(screen.queryByText(/just taken/)).toBeNull();
    await user.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(onCancel).toHaveBeenCalled();
  });

  it("counts a full basket as the holds bar does: the holds the EHR did not confirm are named, and why they count", () => {
    const { unmount } = renderPanel({ kind: "basketFull", notConfirmed: 0, ...chosen });
    expect(screen.getByText("You already hold 3 slots")).toBeTruthy();
    expect(screen.queryByText(/did not confirm/)).toBeNull();
    unmount();
    renderPanel({ kind: "basketFull", notConfirmed: 1, ...chosen });
    expect(screen.getByText("You already hold 3 slots (1 not confirmed)")).toBeTruthy();
    expect(screen.getByTestId("selection-panel").textContent).toContain("A hold the EHR did not confirm counts until it frees itself.");
  });

  it("once Tandem's server lists a hold it never answered for, no longer says the server cannot be reached, and can still try again", async () => {
    const unreached = new TypeError("Failed to fetch");
    const { unmount } = renderPanel({ kind: "failed", ...chosen, step: "hold", error: unreached, outcomeUnknown: true, maybeHeld: null });
    expect(screen.getByText("Tandem could not reach its server")).toBeTruthy();
    unmount();

    const { user, onSelect, onCancel } = renderPanel({ kind: "failed", ...chosen, step: "hold", error: unreached, outcomeUnknown: true, maybeHeld: MAYBE_HELD });
    expect(screen.queryByText("Tandem could not reach its server")).toBeNull();
    expect(screen.getByText("The EHR may have held this slot for you")).toBeTruthy();
    expect(screen.getByTestId("selection-panel").textContent).toContain("It is listed below as not confirmed, and frees itself by 10:42 at the latest.");
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(onSelect).toHaveBeenCalledWith(TEN);
    await user.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(onCancel).toHaveBeenCalled();
  });

  it("a check that could not reach Tandem's server: once the server answers any call again, says it is answering and that the user can try again now", async () => {
    const unreached = new TypeError("Failed to fetch");
    const { user, onSelect } = renderPanel({ kind: "failed", ...chosen, step: "check", error: unreached, outcomeUnknown: false, maybeHeld: null });
    expect(screen.getByRole("alert").textContent).toContain("Tandem could not reach its server");
    act(() => reportBffAnswered());
    expect(screen.queryByText("Tandem could not reach its server")).toBeNull();
    const back = screen.getByRole("status");
    expect(back.textContent).toContain("Tandem's server is answering again");
    expect(back.textContent).toContain("You can try again now.");
    expect(screen.getByTestId("selection-panel").textContent).toContain("Nothing is held.");
    await user.click(within(back).getByRole("button", { name: "Try again" }));
    expect(onSelect).toHaveBeenCalledWith(TEN);
  });

  it("a check refused as Tandem was not active: once Tandem answers again (reinstalled), says it is active again and offers Try again", async () => {
    const inactive = new ApiError(403, { code: "installation_inactive", message: "Tandem's installation for this organization is uninstalled", trace_id: "t2" });
    const { user, onSelect } = renderPanel({ kind: "failed", ...chosen, step: "check", error: inactive, outcomeUnknown: false, maybeHeld: null });
    expect(screen.getByRole("alert").textContent).toContain("Tandem is not active for this organization");
    expect(screen.queryByRole("button", { name: "Try again" })).toBeNull();
    act(() => reportBffAnswered());
    expect(screen.queryByText("Tandem is not active for this organization")).toBeNull();
    const back = screen.getByRole("status");
    expect(back.textContent).toContain("Tandem is active again");
    expect(screen.getByTestId("selection-panel").textContent).toContain("Nothing is held.");
    await user.click(within(back).getByRole("button", { name: "Try again" }));
    expect(onSelect).toHaveBeenCalledWith(TEN);
  });

  it("a hold refused by the EHR is one alert: what was not held, what failed, and Try again beside Dismiss", async () => {
    const ehrDown = new ApiError(502, { code: "server_unresponsive", message: "EHR integration is not available", trace_id: "t3" });
    const { user, onSelect, onCancel } = renderPanel({ kind: "failed", ...chosen, step: "hold", error: ehrDown, outcomeUnknown: false, maybeHeld: null });
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain("The EHR did not answer");
    expect(alert.textContent).toContain("Could not hold 10:00 with Dr. Noah Müller, MD on Tue 1 Dec. Nothing is held. Try again in a moment.");
    await user.click(within(alert).getByRole("button", { name: "Try again" }));
    expect(onSelect).toHaveBeenCalledWith(TEN);
    await user.click(within(alert).getByRole("button", { name: "Dismiss" }));
    expect(onCancel).toHaveBeenCalled();
  });

  it("names the system that failed when the BFF answered and listed the hold itself", () => {
    const timedOut = new ApiError(502, { code: "upstream_timeout", message: "The clinic data service did not answer in time", trace_id: "t1" });
    renderPanel({ kind: "failed", ...chosen, step: "hold", error: timedOut, outcomeUnknown: true, maybeHeld: MAYBE_HELD });
    expect(screen.getByText("The clinic data service did not answer in time")).toBeTruthy();
    expect(screen.getByTestId("selection-panel").textContent).toContain("It is listed below as not confirmed");
  });
});
