// @vitest-environment happy-dom
import { act, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { contextPatientResponse } from "#contract/app-api/patient.ts";
import { failure, installFakeBff, ok } from "#src/testing/fake-bff.ts";
import { renderWithUser, testQueryClient } from "#src/testing/render.tsx";
import { waitlistUserSession } from "#src/features/waitlist/testing/waitlist-session.ts";
import { TANDEM_TROUBLE_REREAD_MS, createAppQueryClient } from "#src/api/query-client.ts";
import { PatientBanner } from "./patient-banner.tsx";

// The bar naming the patient open in the EHR. Its failed read must not stay
// on screen once the cause is gone (found walking a lock on Tandem's audit
// table: the note read again on Try again, the bar went on saying the
// patient's details could not be loaded): it offers Try again, and the app's
// query client reads it again by itself while Tandem's server is the cause.

const PATIENT = { id: "pat_1", firstName: "Joshua", lastName: "Sanders", middleName: null, mrn: "00537198", dateOfBirth: null, gender: null };
const storeDown = failure(503, { code: "store_unavailable", message: "Tandem's server could not use its database just now: try again in a few seconds" });

function renderBanner(queryClient = createAppQueryClient()) {
  const session = waitlistUserSession("Front Desk");
  return renderWithUser(<PatientBanner session={{ ...session, context: { ...session.context, patientId: PATIENT.id } }} />, { queryClient });
}

afterEach(() => {
  vi.useRealTimers();
});

describe("PatientBanner", () => {
  it("a read that failed while Tandem's store was down offers Try again, which names the patient once the store is back", async () => {
    const bff = installFakeBff();
    bff.once("GET", "/api/context/patient", storeDown);
    bff.on("GET", "/api/context/patient", ok(contextPatientResponse, { patient: PATIENT }));
    const { user } = renderBanner(testQueryClient());
    expect(await screen.findByText("Patient details could not be loaded: Tandem's server is having trouble.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect((await screen.findByTestId("patient-name")).textContent).toBe("Sanders, Joshua");
    expect(screen.queryByText(/could not be loaded/)).toBeNull();
  });

  it("is read again by itself while Tandem's server could not use its store, and the failure goes once a read answers", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const bff = installFakeBff();
    bff.on("GET", "/api/context/patient", storeDown);
    renderBanner();
    // The query client's own two retries first (1 s, then 2 s), then the failure on screen.
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    expect(await screen.findByText(/could not be loaded/)).toBeTruthy();
    const failedReads = bff.calls("GET", "/api/context/patient").length;
    bff.on("GET", "/api/context/patient", ok(contextPatientResponse, { patient: PATIENT }));
    await act(() => vi.advanceTimersByTimeAsync(TANDEM_TROUBLE_REREAD_MS));
    expect((await screen.findByTestId("patient-name")).textContent).toBe("Sanders, Joshua");
    expect(bff.calls("GET", "/api/context/patient")).toHaveLength(failedReads + 1);
    // Read, it is not read again on a timer.
    await act(() => vi.advanceTimersByTimeAsync(TANDEM_TROUBLE_REREAD_MS * 3));
    expect(bff.calls("GET", "/api/context/patient")).toHaveLength(failedReads + 1);
  });

  it("a refusal that trying again cannot change is said once, with no Try again and no reads again", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const bff = installFakeBff();
    bff.on("GET", "/api/context/patient", failure(403, { code: "role_forbidden", message: "Your role does not allow reading patients" }));
    renderBanner();
    expect(await screen.findByText("Patient details could not be loaded: Your role does not allow this.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Try again" })).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(TANDEM_TROUBLE_REREAD_MS * 3));
    expect(bff.calls("GET", "/api/context/patient")).toHaveLength(1);
  });
});
