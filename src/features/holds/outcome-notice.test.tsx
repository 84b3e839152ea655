// @vitest-environment happy-dom
import { screen, within } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import type { HeldSlot } from "#contract/app-api/slots.ts";
import type { HoldOutcome } from "#src/scheduling/held-slots-controller.ts";
import { renderWithUser } from "#src/testing/render.tsx";
import { OutcomeNotices } from "./outcome-notice.tsx";
import { FAKE_DESCRIBER } from "./testing/fake-describer.ts";

// The holds bar's notices of holds that ended (issue 36 item 3): every hold
// that ends is told, and each notice goes once dismissed.

const navigate = vi.fn();
vi.mock("@tanstack/react-router", () => ({ useNavigate: () => navigate }));

const heldAt = (time: string): HeldSlot => ({
  id: `hold-${time}`,
  slot: { providerId: "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", facilityId: "fac_11111111111111111111111111111111", startsAt: `2026-12-01T${time}:00-05:00`, endsAt: `2026-12-01T${time.slice(0, 3)}20:00-05:00` },
  appointmentTypeId: "atp_dddddddddddddddddddddddddddddddd",
  slotLengthMinutes: 20,
  isNewPatient: false,
  patientId: null,
  patientName: null,
  expiresAt: "2026-12-01T15:10:00.000Z",
  heldAt: "2026-12-01T15:00:00.000Z",
});

/** The notices as the holds bar shows them, with the controller's dismissal (by hold). */
function Notices({ initial }: { initial: readonly HoldOutcome[] }) {
  const [outcomes, setOutcomes] = useState(initial);
  return <OutcomeNotices outcomes={outcomes} describe={FAKE_DESCRIBER} patientTextOf={() => "for Okafor, Ada"} onDismiss={(ids) => setOutcomes((current) => current.filter((outcome) => !ids.includes(outcome.held.id)))} />;
}

describe("OutcomeNotices", () => {
  it("tells every one of three holds that expired together, in one status, and Dismiss (by keyboard) puts it away", async () => {
    const expired = ["09:00", "10:00", "11:00"].map((time): HoldOutcome => ({ kind: "expired", held: heldAt(time) }));
    const { user } = renderWithUser(<Notices initial={expired} />);
    const status = screen.getByRole("status");
    expect(within(status).getByRole("heading", { name: /3 holds have expired/ })).toBeTruthy();
    for (const time of ["09:00", "10:00", "11:00"]) expect(within(status).getByText(`${time} with Dr. Noah Müller, MD on Tue 1 Dec`)).toBeTruthy();
    expect(screen.getAllByRole("button", { name: "Search again" })).toHaveLength(1);

    screen.getByRole("button", { name: "Dismiss" }).focus();
    await user.keyboard("{Enter}");
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("says one expired hold in the singular, and Search again goes back to the search and puts the notice away", async () => {
    const { user } = renderWithUser(<Notices initial={[{ kind: "expired", held: heldAt("09:00") }]} />);
    expect(screen.getByRole("heading", { name: /The hold has expired/ })).toBeTruthy();
    expect(screen.getByRole("status").textContent).toContain("09:00 with Dr. Noah Müller, MD on Tue 1 Dec is no longer held");
    await user.click(screen.getByRole("button", { name: "Search again" }));
    expect(navigate).toHaveBeenCalledWith(expect.objectContaining({ to: "/slots" }));
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("keeps a booking, expiries and releases apart: dismissing one kind leaves the others told", async () => {
    const outcomes: HoldOutcome[] = [
      { kind: "released", held: heldAt("08:00") },
      { kind: "expired", held: heldAt("09:00") },
      { kind: "booked", held: heldAt("10:00"), appointment: { appointmentId: "3f0c9a52-1111-4222-8333-444455556666", reference: "EHR-3F0C9A52" }, releasedOthers: [], seenGoneAtMs: 0 },
      { kind: "released", held: heldAt("11:00") },
    ];
    const { user } = renderWithUser(<Notices initial={outcomes} />);
    expect(screen.getAllByRole("status")).toHaveLength(3);
    expect(screen.getByText(/Released the holds on 2 slots/)).toBeTruthy();
    expect(screen.getByText("EHR-3F0C9A52")).toBeTruthy();

    const released = screen.getByText(/Released the holds on 2 slots/).closest("[role=status]");
    if (!(released instanceof HTMLElement)) throw new Error("no released notice");
    await user.click(within(released).getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByText(/Released the hold/)).toBeNull();
    expect(screen.getByRole("heading", { name: /The hold has expired/ })).toBeTruthy();
    expect(screen.getByRole("heading", { name: /Booked in the EHR/ })).toBeTruthy();
  });
});
