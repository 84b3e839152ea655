// @vitest-environment happy-dom
import { screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { renderWithUser } from "#src/testing/render.tsx";
import { LeaveGuardDialog } from "./leave-guard-dialog.tsx";

// The question asked when the user moves to another page with unsaved text
// (useLeaveGuard blocks the move; the router's part is the e2e suite's): it
// says the draft is kept, Stay and Escape keep the user where they were, with
// focus back on what they used to move, and Leave lets the move go on.

function Page({ onLeave }: { onLeave: () => void }) {
  const [isAsking, setIsAsking] = useState(false);
  const guard = { isAsking, stay: () => setIsAsking(false), leave: onLeave };
  return (
    <>
      <button type="button" onClick={() => setIsAsking(true)}>
        Slots
      </button>
      <LeaveGuardDialog guard={guard} />
    </>
  );
}

describe("LeaveGuardDialog", () => {
  it("asks, says the draft is kept, and Stay (or Escape) gives focus back to what the user moved with", async () => {
    const leave = vi.fn();
    const { user } = renderWithUser(<Page onLeave={leave} />);
    const slots = screen.getByRole("button", { name: "Slots" });
    slots.focus();
    await user.keyboard("{Enter}");

    const question = await screen.findByRole("alertdialog", { name: "Leave without saving?" });
    expect(question.textContent).toContain("Your draft is kept and will be offered when you come back.");
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Stay on this note" }));
    await user.keyboard("{Enter}");
    expect(screen.queryByRole("alertdialog")).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(slots));

    await user.keyboard("{Enter}");
    await screen.findByRole("alertdialog");
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("alertdialog")).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(slots));
    expect(leave).not.toHaveBeenCalled();
  });

  it("Leave lets the move go on", async () => {
    const leave = vi.fn();
    const { user } = renderWithUser(<Page onLeave={leave} />);
    await user.click(screen.getByRole("button", { name: "Slots" }));
    await user.click(await screen.findByRole("button", { name: "Leave" }));
    expect(leave).toHaveBeenCalledOnce();
  });
});
