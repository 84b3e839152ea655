// @vitest-environment happy-dom
import { screen, within } from "@testing-library/react";
import { useState, useSyncExternalStore } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { HeldSlot, MaybeHeldSlot } from "#contract/app-api/slots.ts";
import { HeldSlotsController } from "#src/scheduling/held-slots-controller.ts";
import type { HoldsValue } from "#src/scheduling/holds-provider.tsx";
import { renderWithUser } from "#src/testing/render.tsx";
import { HoldsBar } from "./holds-bar.tsx";
import { FAKE_DESCRIBER } from "./testing/fake-describer.ts";
import { frameIsNarrow } from "./testing/frame-width.ts";
import { MAYBE_HELD } from "./testing/maybe-held.ts";

// The holds bar as the user meets it, its context stood in for: the user's
// holds (one list, as every tab reads it), a hold of the patient open before
// named, released from the keyboard, and the release told; in a narrow frame
// a hold the EHR did not confirm folds into the one line with the held slots.

const OPEN_PATIENT = "pat_open";
const holdsValue = vi.hoisted(() => ({ current: null as HoldsValue | null }));

vi.mock("#src/scheduling/holds-provider.tsx", () => ({
  useHolds: () => {
    if (!holdsValue.current) throw new Error("no holds in the test");
    return holdsValue.current;
  },
}));
vi.mock("#src/bridge/bridge-provider.tsx", () => ({ useBridge: () => ({ bridge: { mode: "embedded" }, context: { patientId: OPEN_PATIENT } }) }));
vi.mock("#src/scheduling/use-slot-describer.ts", () => ({ useSlotDescriber: () => ({ describe: FAKE_DESCRIBER }) }));
vi.mock("./use-open-patient-name.ts", () => ({ useOpenPatientName: () => "Alvarez, Maria" }));
vi.mock("@tanstack/react-router", () => ({ useNavigate: () => vi.fn() }));

const heldAt = (time: string, patient: { patientId: string; patientName: string }): HeldSlot => ({
  id: `hold-${time}`,
  slot: { providerId: "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", facilityId: "fac_11111111111111111111111111111111", startsAt: `2026-12-01T${time}:00-05:00`, endsAt: `2026-12-01T${time.slice(0, 3)}20:00-05:00` },
  appointmentTypeId: "atp_dddddddddddddddddddddddddddddddd",
  slotLengthMinutes: 20,
  isNewPatient: false,
  ...patient,
  expiresAt: new Date(Date.now() + 600_000).toISOString(),
  heldAt: new Date().toISOString(),
});

/** The holds context over a real controller, the holds kept in state as the query cache keeps them. */
function Bar({ initial, maybeHeld = [], holdsError = null }: { initial: HeldSlot[]; maybeHeld?: MaybeHeldSlot[]; holdsError?: Error | null }) {
  const [holds, setHolds] = useState(initial);
  const [controller] = useState(
    () =>
      new HeldSlotsController({
        release: () => Promise.resolve({ released: true }),
        book: () => Promise.reject(new Error("not booked in this test")),
        declineReason: () => null,
        addHeld: (held) => setHolds((current) => [...current, held]),
        removeHeld: (ids) => setHolds((current) => current.filter((held) => !ids.includes(held.id))),
        holdsChanged: () => undefined,
        slotsChanged: () => undefined,
        abandonSelection: () => undefined,
      }),
  );
  const activity = useSyncExternalStore(controller.subscribe, controller.getActivity);
  holdsValue.current = {
    canHold: true,
    holds,
    maybeHeld,
    letGo: () => Promise.resolve({ released: true }),
    holdsError,
    refetchHolds: () => undefined,
    controller,
    activity,
    flow: { cancel: () => undefined } as unknown as HoldsValue["flow"],
    selection: { kind: "idle" },
    select: () => undefined,
  };
  return <HoldsBar />;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("HoldsBar", () => {
  it("names the patient a hold was kept for, asks about it, releases it from the keyboard and says so", async () => {
    const before = heldAt("09:00", { patientId: "pat_before", patientName: "Okafor, Ada" });
    const open = heldAt("10:00", { patientId: OPEN_PATIENT, patientName: "Alvarez, Maria" });
    const { user } = renderWithUser(<Bar initial={[before, open]} />);
    const bar = screen.getByRole("region", { name: "Your holds" });
    expect(within(bar).getByRole("heading", { name: /You are holding 2 slots/ })).toBeTruthy();
    expect(within(bar).getByText("You hold a slot for Okafor, Ada, who was open before. Release it, or keep holding while you come back to that patient.")).toBeTruthy();
    const cards = within(bar).getAllByRole("listitem");
    expect(cards.map((card) => within(card).getByTestId("held-for").textContent)).toEqual(["for Okafor, Ada (the patient open before)", "for Alvarez, Maria"]);
    expect(within(cards[0] ?? bar).queryByRole("button", { name: /Book in EHR/ })).toBeNull();

    within(cards[0] ?? bar).getByRole("button", { name: /Release/ }).focus();
    await user.keyboard("{Enter}");
    expect(await within(bar).findByText(/Released the hold on 09:00 with Dr. Noah Müller, MD/)).toBeTruthy();
    expect(within(bar).getByRole("heading", { name: /You are holding 1 slot/ })).toBeTruthy();
    expect(within(bar).queryByText(/who was open before/)).toBeNull();
  });

  it("in a narrow frame folds a hold the EHR did not confirm into the one line with the held slots; Show opens both, Let it go included (issue 36 item 10)", async () => {
    frameIsNarrow(true);
    const open = { patientId: OPEN_PATIENT, patientName: "Alvarez, Maria" };
    const { user } = renderWithUser(<Bar initial={[heldAt("09:00", open), heldAt("10:00", open)]} maybeHeld={[MAYBE_HELD]} />);
    const bar = screen.getByRole("region", { name: "Your holds" });
    expect(within(bar).getByRole("heading", { name: /^You are holding 2 slots · 1 more not confirmed$/ })).toBeTruthy();
    expect(within(bar).queryAllByRole("heading")).toHaveLength(1);
    expect(within(bar).queryByRole("listitem")).toBeNull();
    expect(within(bar).queryByRole("button", { name: /Let it go/ })).toBeNull();

    const show = within(bar).getByRole("button", { name: "Show the held slots" });
    expect(show.getAttribute("aria-expanded")).toBe("false");
    show.focus();
    await user.keyboard("{Enter}");
    expect(show.getAttribute("aria-expanded")).toBe("true");
    expect(within(bar).getAllByRole("listitem")).toHaveLength(3);
    expect(within(bar).getByRole("heading", { name: "The EHR may be holding 1 slot for you that it did not confirm" })).toBeTruthy();
    const notConfirmed = within(bar).getByTestId("maybe-held");
    expect(within(notConfirmed).getByText(/^Not confirmed: the EHR may have held this slot for you/)).toBeTruthy();
    expect(within(notConfirmed).getByRole("button", { name: "Let it go" })).toBeTruthy();
  });

  it("in a narrow frame a hold the EHR did not confirm, alone, is one line too", async () => {
    frameIsNarrow(true);
    const { user } = renderWithUser(<Bar initial={[]} maybeHeld={[MAYBE_HELD]} />);
    const bar = screen.getByRole("region", { name: "Your holds" });
    expect(within(bar).getByRole("heading", { name: /^You may be holding 1 slot · not confirmed$/ })).toBeTruthy();
    expect(within(bar).queryByRole("listitem")).toBeNull();
    await user.click(within(bar).getByRole("button", { name: "Show the held slots" }));
    expect(within(bar).getByRole("heading", { name: "The EHR may be holding 1 slot for you that it did not confirm" })).toBeTruthy();
    expect(within(within(bar).getByTestId("maybe-held")).getByRole("button", { name: "Let it go" })).toBeTruthy();
  });

  it("holds that could not be read say it is the holds, so the bar never repeats the view's own notice word for word", () => {
    frameIsNarrow(false);
    renderWithUser(<Bar initial={[]} holdsError={new TypeError("Failed to fetch")} />);
    const alert = within(screen.getByRole("region", { name: "Your holds" })).getByRole("alert");
    expect(alert.textContent).toContain("Tandem could not reach its server");
    expect(alert.textContent).toContain("Your holds could not be read. It may be restarting");
    expect(within(alert).getByRole("button", { name: "Try again" })).toBeTruthy();
  });

  it("in a wide frame shows the held slots and the one not confirmed, each under its own heading", () => {
    frameIsNarrow(false);
    const open = { patientId: OPEN_PATIENT, patientName: "Alvarez, Maria" };
    renderWithUser(<Bar initial={[heldAt("09:00", open), heldAt("10:00", open)]} maybeHeld={[MAYBE_HELD]} />);
    const bar = screen.getByRole("region", { name: "Your holds" });
    expect(within(bar).getByRole("heading", { name: /^You are holding 2 slots · booking one releases the others/ })).toBeTruthy();
    expect(within(bar).getByRole("heading", { name: "The EHR may be holding 1 slot for you that it did not confirm" })).toBeTruthy();
    expect(within(bar).getAllByRole("listitem")).toHaveLength(3);
    expect(within(within(bar).getByTestId("maybe-held")).getByRole("button", { name: "Let it go" })).toBeTruthy();
  });
});
