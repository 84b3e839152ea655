// @vitest-environment happy-dom
import { fireEvent, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { SlotSearchQuery } from "#contract/app-api/slots.ts";
import { renderWithUser } from "#src/testing/render.tsx";
import { forgetAllFilterEdits } from "./kept-filter-edits.ts";
import { SlotFilterForm } from "./slot-filter-form.tsx";
import { NO_TIME_FILTER, type SlotTimeFilter } from "#src/scheduling/slot-time-filter.ts";

// The filter form as the front desk drives it (issue 36 items 6 and 16): the
// appointment type chosen by keyboard, a slot length that does not fit the
// visit warned about but searched, one the service refuses stopped with a
// message on the field, a field put right no longer said to be wrong before
// the next Search, and Search from the keyboard. Edits not yet searched
// outlive the form (a reload) over the search they were made on.

const FOLLOW_UP = { id: "atp_aaaabbbbccccddddeeeeffff00001111", name: "Follow-Up Visit", abbreviation: "FU", defaultDurationMinutes: 20, newPatientDurationMinutes: 30 };
const NEW_PATIENT = { id: "atp_aaaabbbbccccddddeeeeffff00002222", name: "New Patient Visit", abbreviation: "NPV", defaultDurationMinutes: 40, newPatientDurationMinutes: 60 };
const RIVERSIDE = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
const APPLIED: SlotSearchQuery = { appointmentTypeId: FOLLOW_UP.id, facilityIds: [RIVERSIDE], startDate: "2026-11-30", endDate: "2026-12-13", isNewPatient: false };

function renderForm(applied: SlotSearchQuery = APPLIED, facilityOptions = [{ value: RIVERSIDE, label: "Upper West Side" }], isSearching = false) {
  const onSearch = vi.fn<(filters: SlotSearchQuery, time: SlotTimeFilter) => void>();
  const rendered = renderWithUser(
    <SlotFilterForm
      applied={applied}
      appliedTime={NO_TIME_FILTER}
      appointmentTypes={[FOLLOW_UP, NEW_PATIENT]}
      facilityOptions={facilityOptions}
      providerOptions={[]}
      isLoadingProviders={false}
      isSearching={isSearching}
      onSearch={onSearch}
      today="2026-11-30"
    />,
  );
  return { ...rendered, onSearch };
}

const endDateField = () => screen.getByLabelText("To");
const lengthField = () => screen.getByRole("textbox", { name: "Slot length (minutes)" });
const describedText = (element: HTMLElement) =>
  (element.getAttribute("aria-describedby") ?? "")
    .split(" ")
    .map((id) => document.getElementById(id)?.textContent ?? "")
    .join(" ");

beforeEach(() => {
  forgetAllFilterEdits();
});

describe("the slot filter form, driven by a user", () => {
  it("choosing a type changes the default length, and a new-patient type ticks New patient", async () => {
    const { user, onSearch } = renderForm();
    const type = screen.getByRole("combobox", { name: "Appointment type" });
    expect(describedText(lengthField())).toContain("Leave empty for the default: 20 min.");
    await user.selectOptions(type, "New Patient Visit (40 min)");
    expect(screen.getByRole("checkbox", { name: "New patient" })).toHaveProperty("checked", true);
    expect(describedText(lengthField())).toContain("Leave empty for the default: 60 min (new patient).");
    await user.click(screen.getByRole("button", { name: "Search" }));
    expect(onSearch).toHaveBeenCalledWith({ ...APPLIED, appointmentTypeId: NEW_PATIENT.id, isNewPatient: true }, NO_TIME_FILTER);
  });

  it("a length far from the type's usual one is warned about as it is typed, and still searched", async () => {
    const { user, onSearch } = renderForm();
    expect(screen.queryByText(/under half/)).toBeNull();
    await user.type(lengthField(), "7");
    expect(screen.getByText("7 min is under half the Follow-Up Visit's usual 20 min: check the visit fits.")).toBeTruthy();
    expect(describedText(lengthField())).toContain("under half the Follow-Up Visit's usual 20 min");
    expect(lengthField().getAttribute("aria-invalid")).toBeNull();
    // Enter in the field submits the form, as in any form.
    await user.keyboard("{Enter}");
    expect(onSearch).toHaveBeenCalledWith({ ...APPLIED, slotLengthMinutes: 7 }, NO_TIME_FILTER);
  });

  it("the warning follows the type: 45 min is over twice a Follow-Up's 20, within a New Patient Visit's range", async () => {
    const { user } = renderForm();
    await user.type(lengthField(), "45");
    expect(screen.getByText(/45 min is over twice the Follow-Up Visit's usual 20 min/)).toBeTruthy();
    await user.selectOptions(screen.getByRole("combobox", { name: "Appointment type" }), NEW_PATIENT.id);
    expect(screen.queryByText(/over twice|under half/)).toBeNull();
  });

  it("a length the service refuses is not searched: the field says why and is marked invalid", async () => {
    const { user, onSearch } = renderForm();
    await user.type(lengthField(), "2");
    await user.click(screen.getByRole("button", { name: "Search" }));
    expect(onSearch).not.toHaveBeenCalled();
    expect(lengthField().getAttribute("aria-invalid")).toBe("true");
    expect(describedText(lengthField())).toContain("Slot length must be whole minutes from 5 to 480 (what the EHR accepts), or empty for the type's default.");
    // Corrected, it searches.
    await user.clear(lengthField());
    await user.type(lengthField(), "15");
    await user.click(screen.getByRole("button", { name: "Search" }));
    expect(onSearch).toHaveBeenCalledWith({ ...APPLIED, slotLengthMinutes: 15 }, NO_TIME_FILTER);
  });

  it("a length that is not whole minutes (1e2, 7.5) is refused, never read as the default", async () => {
    const { user, onSearch } = renderForm();
    for (const typed of ["1e2", "7.5"]) {
      await user.clear(lengthField());
      await user.type(lengthField(), typed);
      await user.click(screen.getByRole("button", { name: "Search" }));
      expect(lengthField().getAttribute("aria-invalid")).toBe("true");
    }
    expect(onSearch).not.toHaveBeenCalled();
  });

  it("the whole form by keyboard: Tab to the length, type, Tab on to Search, Enter", async () => {
    const { user, onSearch } = renderForm({ ...APPLIED, slotLengthMinutes: 30 });
    expect(lengthField()).toHaveProperty("value", "30");
    lengthField().focus();
    await user.clear(lengthField());
    await user.type(lengthField(), "25");
    for (let presses = 0; presses < 20 && document.activeElement !== screen.getByRole("button", { name: "Search" }); presses += 1) await user.tab();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Search" }));
    await user.keyboard("{Enter}");
    expect(onSearch).toHaveBeenCalledWith({ ...APPLIED, slotLengthMinutes: 25 }, NO_TIME_FILTER);
  });

  it("a field put right no longer says it is wrong, before the next Search; a field still wrong keeps its error and Search still refuses", async () => {
    const { user, onSearch } = renderForm();
    fireEvent.change(endDateField(), { target: { value: "2027-03-01" } });
    await user.type(lengthField(), "2");
    await user.click(screen.getByRole("button", { name: "Search" }));
    expect(onSearch).not.toHaveBeenCalled();
    expect(endDateField().getAttribute("aria-invalid")).toBe("true");
    expect(describedText(endDateField())).toContain("The window may span at most 62 days.");
    expect(lengthField().getAttribute("aria-invalid")).toBe("true");

    // The dates put right: their error goes at once; the length's stays.
    fireEvent.change(endDateField(), { target: { value: "2026-12-20" } });
    expect(screen.queryByText("The window may span at most 62 days.")).toBeNull();
    expect(endDateField().getAttribute("aria-invalid")).toBeNull();
    expect(lengthField().getAttribute("aria-invalid")).toBe("true");
    expect(describedText(lengthField())).toContain("Slot length must be whole minutes from 5 to 480");

    // Still wrong: Search refuses again, and says so on the length alone.
    await user.click(screen.getByRole("button", { name: "Search" }));
    expect(onSearch).not.toHaveBeenCalled();
    expect(lengthField().getAttribute("aria-invalid")).toBe("true");
    expect(endDateField().getAttribute("aria-invalid")).toBeNull();

    await user.clear(lengthField());
    await user.type(lengthField(), "15");
    expect(lengthField().getAttribute("aria-invalid")).toBeNull();
    expect(screen.queryByText(/Slot length must be whole minutes/)).toBeNull();
    await user.click(screen.getByRole("button", { name: "Search" }));
    expect(onSearch).toHaveBeenCalledWith({ ...APPLIED, endDate: "2026-12-20", slotLengthMinutes: 15 }, NO_TIME_FILTER);
  });

  it("a window too long for the facilities chosen is put right by choosing fewer facilities: the dates' error goes at once", async () => {
    const nine = Array.from({ length: 9 }, (_, index) => ({ value: `3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a7${index}`, label: `Facility ${index + 1}` }));
    const { user, onSearch } = renderForm({ ...APPLIED, facilityIds: nine.map((option) => option.value) }, nine);
    fireEvent.change(endDateField(), { target: { value: "2026-12-19" } });
    await user.click(screen.getByRole("button", { name: "Search" }));
    expect(onSearch).not.toHaveBeenCalled();
    expect(describedText(endDateField())).toContain("With 9 facilities the window may span at most 14 days");

    await user.click(screen.getByRole("button", { name: /^Facilities/ }));
    await user.click(screen.getByRole("checkbox", { name: "Facility 9" }));
    await user.click(screen.getByRole("checkbox", { name: "Facility 8" }));
    expect(endDateField().getAttribute("aria-invalid")).toBeNull();
    expect(screen.queryByText(/the window may span at most 14 days/)).toBeNull();
  });

  it("a start date that has passed is stopped at the field, and the calendar starts today", () => {
    const { onSearch } = renderForm();
    const startField = screen.getByLabelText("From");
    expect(startField.getAttribute("min")).toBe("2026-11-30");
    fireEvent.change(startField, { target: { value: "2026-11-29" } });
    fireEvent.submit(screen.getByRole("form", { name: "Find a slot" }));
    expect(onSearch).not.toHaveBeenCalled();
    expect(startField.getAttribute("aria-invalid")).toBe("true");
    expect(describedText(startField)).toBe("The start date has passed: choose today or a later date (times gone by cannot be held).");
    fireEvent.change(startField, { target: { value: "2026-11-30" } });
    expect(startField.getAttribute("aria-invalid")).toBeNull();
  });

  it("times of day put right no longer say they are wrong, before the next Search", async () => {
    const { user, onSearch } = renderForm();
    fireEvent.change(screen.getByLabelText("Starting from"), { target: { value: "14:00" } });
    fireEvent.change(screen.getByLabelText("Starting before"), { target: { value: "09:00" } });
    await user.click(screen.getByRole("button", { name: "Search" }));
    expect(onSearch).not.toHaveBeenCalled();
    expect(screen.getByText("“Starting before” must be later than “Starting from”.")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Starting before"), { target: { value: "17:00" } });
    expect(screen.queryByText("“Starting before” must be later than “Starting from”.")).toBeNull();
    expect(screen.getByLabelText("Starting before").getAttribute("aria-invalid")).toBeNull();
  });

  it("edits not yet searched are there again when the form opens over the same search (a reload), not over another, and go once searched", async () => {
    const first = renderForm();
    await first.user.clear(endDateField());
    await first.user.type(endDateField(), "2026-12-06");
    await first.user.type(lengthField(), "25");
    await first.user.click(screen.getByRole("button", { name: "Mornings" }));
    first.unmount();

    const other = renderForm({ ...APPLIED, endDate: "2026-12-20" });
    expect((endDateField() as HTMLInputElement).value).toBe("2026-12-20");
    expect((lengthField() as HTMLInputElement).value).toBe("");
    other.unmount();

    const again = renderForm();
    expect((endDateField() as HTMLInputElement).value).toBe("2026-12-06");
    expect((lengthField() as HTMLInputElement).value).toBe("25");
    expect(screen.getByRole("button", { name: "Mornings" }).getAttribute("aria-pressed")).toBe("true");
    await again.user.click(screen.getByRole("button", { name: "Search" }));
    expect(again.onSearch).toHaveBeenCalledWith({ ...APPLIED, endDate: "2026-12-06", slotLengthMinutes: 25 }, expect.objectContaining({ weekdays: [] }));
    again.unmount();

    renderForm();
    expect((endDateField() as HTMLInputElement).value).toBe("2026-12-13");
    expect((lengthField() as HTMLInputElement).value).toBe("");
  });

  it("Search turns while a search runs, where the user pressed it, and keeps its name", () => {
    const idle = renderForm();
    const button = () => screen.getByRole("button", { name: "Search" });
    expect(button().querySelector('[data-testid="spinner"]')).toBeNull();
    idle.unmount();
    renderForm(APPLIED, undefined, true);
    expect(button().querySelector('[data-testid="spinner"]')).not.toBeNull();
    expect(button().getAttribute("aria-describedby")).toBeTruthy();
    expect(document.getElementById(button().getAttribute("aria-describedby") ?? "")?.textContent).toBe("Searching");
  });

  it("edits put back as they were are not kept", async () => {
    const first = renderForm();
    await first.user.type(lengthField(), "25");
    await first.user.clear(lengthField());
    first.unmount();
    renderForm();
    expect((lengthField() as HTMLInputElement).value).toBe("");
    expect(window.sessionStorage.length).toBe(0);
  });
});
