// @vitest-environment happy-dom
import { screen, within } from "@testing-library/react";
import type { ReactElement } from "react";
import { describe, expect, it } from "vitest";
import { UserTimeSettingsProvider } from "#src/lib/use-time-display.tsx";
import { renderWithUser } from "#src/testing/render.tsx";
import { AgendaList } from "./agenda-list.tsx";
import { AvailabilityLegend } from "./availability-legend.tsx";
import { NO_LOAD } from "./band-load.tsx";
import type { TemplateInfo } from "./band-details.tsx";
import type { AvailabilityTemplate } from "./expand-template.ts";
import { FacilityLanes } from "./facility-lanes.tsx";
import { availabilityTemplate } from "./testing/template-fixture.ts";
import { WeekGrid } from "./week-grid.tsx";
import { buildWeekModel, groupIntoGrids, type Band, type GridModel, type TemplateEntry } from "./week-model.ts";
import { weekWindow } from "./week-window.ts";

// Issue 36 item 16: the week grid, the facility lanes and the agenda as a
// scheduler uses them: what each band says, arrow keys between bands, the
// details opening by click and by keyboard, and the key saying the grid's
// times. A morning clinic and, on Tuesdays and Thursdays, procedures that
// overlap it, for Dr. Brooks; an afternoon clinic for Dr. Okafor; in New
// York, read in en-US by a user in New York, the week of 30 November 2026.

const ZONE = "America/New_York";
const OKAFOR = "prv_000000000000000000000000000000c2";
const weekly = (days: string, start: string) => ({ rrule: `DTSTART;TZID=${ZONE}:20240304T${start.replace(":", "")}00\nRRULE:FREQ=WEEKLY;BYDAY=${days}`, until: null });
const MORNING = availabilityTemplate("1", { startTimeLocal: "08:30", endTimeLocal: "12:30", recurrence: weekly("MO,TU,TH", "08:30") });
const PROCEDURES = availabilityTemplate("2", { name: "Procedures", startTimeLocal: "10:00", endTimeLocal: "12:00", concurrency: 2, recurrence: weekly("TU,TH", "10:00") });
const AFTERNOON = availabilityTemplate("3", { providerId: OKAFOR, name: "Afternoon clinic", startTimeLocal: "13:00", endTimeLocal: "17:00", recurrence: weekly("MO,WE", "13:00") });
const TEMPLATES: AvailabilityTemplate[] = [MORNING, PROCEDURES, AFTERNOON];
const WEEK = weekWindow("2026-11-30", ZONE);
const TODAY = "2026-11-30";
const HOURS = { fromHour: 8, toHour: 18 };
const NAMES = new Map([
  ["00000000-0000-0000-0000-0000000000b1", "Dr. Ada Brooks"],
  ["00000000-0000-0000-0000-0000000000c2", "Dr. Chi Okafor"],
]);
const providerName = (key: string) => NAMES.get(key) ?? "Unlisted provider";

function infoOfEntry(entry: TemplateEntry | null, providerKey: string): TemplateInfo {
  const name = entry?.template.name ?? "Unlisted template";
  return { name, providerName: providerName(providerKey), providerShortName: providerName(providerKey).split(" ").at(-1) ?? "", ruleText: `Every week (${name})`, unreadableReason: null, typesText: "any", untilText: "no end date", isActive: entry?.template.active ?? true };
}
const infoOf = (band: Band) => infoOfEntry(band.entry, band.providerKey);

const model = buildWeekModel({ templates: TEMPLATES, serviceInstances: null, week: WEEK, providerKey: null, showInactive: false });
function firstGrid(mode: "provider" | "facility"): GridModel {
  const [grid] = groupIntoGrids(model, WEEK, { mode, providerName });
  if (!grid) throw new Error(`no ${mode} grid`);
  return grid;
}
const brooksGrid = firstGrid("provider");
const facilityGrid = firstGrid("facility");

function renderInNewYork(ui: ReactElement) {
  return renderWithUser(<UserTimeSettingsProvider settings={{ locale: "en-US", userZone: ZONE }}>{ui}</UserTimeSettingsProvider>);
}

const bandNamed = (pattern: RegExp) => screen.getByRole("button", { name: pattern });

describe("the week grid", () => {
  function renderGrid() {
    return renderInNewYork(
      <>
        <WeekGrid grid={brooksGrid} load={NO_LOAD} week={WEEK} hours={HOURS} today={TODAY} showsProvider={false} infoOf={infoOf} label="Dr. Ada Brooks, week of Nov 30, 2026, EST" />
        <AvailabilityLegend templates={brooksGrid.templates} infoOf={(entry) => infoOfEntry(entry, entry.providerKey)} showsProvider={false} isInactiveShown={false} locale="en-US" />
      </>,
    );
  }

  it("names every band in full, and draws overlapping bands with their whole name and time", () => {
    renderGrid();
    expect(screen.getByRole("region", { name: /^Dr\. Ada Brooks, week of Nov 30, 2026, EST/ })).toBeTruthy();
    const bands = screen.getAllByRole("button");
    // Morning clinic on Monday, Tuesday and Thursday; procedures on Tuesday and Thursday.
    expect(bands).toHaveLength(5);
    const procedures = bandNamed(/^Dr\. Ada Brooks, Procedures, Tuesday, December 1, 10:00 AM–12:00 PM, capacity 2$/);
    expect(within(procedures).getByText("Procedures")).toBeTruthy();
    expect(within(procedures).getByText("10:00 AM–12:00 PM")).toBeTruthy();
    expect(procedures.getAttribute("data-lanes")).toBe("2");
    // Nothing in a band is cut with an ellipsis.
    for (const band of bands) expect(band.querySelector(".truncate")).toBeNull();
    // The summed capacity where they overlap, in words.
    expect(screen.getAllByText("3 at once: Morning clinic 1 + Procedures 2").length).toBeGreaterThan(0);
  });

  it("has one tab stop, and arrow keys move between a day's bands and on to the next day's", async () => {
    const { user } = renderGrid();
    await user.tab();
    expect(document.activeElement).toBe(bandNamed(/^Dr\. Ada Brooks, Morning clinic, Monday, November 30,/));
    await user.keyboard("{ArrowRight}");
    expect(document.activeElement).toBe(bandNamed(/Morning clinic, Tuesday, December 1,/));
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(bandNamed(/Procedures, Tuesday, December 1,/));
    await user.keyboard("{End}");
    expect(document.activeElement).toBe(bandNamed(/Procedures, Thursday, December 3,/));
    await user.keyboard("{Home}");
    expect(document.activeElement).toBe(bandNamed(/Morning clinic, Monday, November 30,/));
    // Only the focused band is in the tab order.
    expect(screen.getAllByRole("button").filter((band) => band.tabIndex === 0)).toHaveLength(1);
  });

  it("opens a band's details on a click, and a second click closes them", async () => {
    const { user } = renderGrid();
    const band = bandNamed(/Procedures, Thursday, December 3,/);
    await user.click(band);
    const details = await screen.findByRole("dialog", { name: "Procedures: details" });
    expect(within(details).getByText("Every week (Procedures)")).toBeTruthy();
    expect(within(details).getByText("2 at once")).toBeTruthy();
    expect(within(details).getByText(/Thu, Dec 3, 10:00 AM–12:00 PM \(2 h\)/)).toBeTruthy();
    await user.click(band);
    expect(screen.queryByRole("dialog", { name: "Procedures: details" })).toBeNull();
  });

  it("has a key that says each template's hours as its bands do", () => {
    renderGrid();
    const key = screen.getByRole("list", { name: "Legend" });
    expect(within(key).getByText("8:30 AM–12:30 PM")).toBeTruthy();
    expect(within(key).getByText("10:00 AM–12:00 PM")).toBeTruthy();
    expect(within(bandNamed(/Morning clinic, Monday, November 30,/)).getByText("8:30 AM–12:30 PM")).toBeTruthy();
  });
});

describe("the facility lanes", () => {
  function renderLanes() {
    return renderInNewYork(<FacilityLanes grid={facilityGrid} week={WEEK} today={TODAY} infoOf={infoOf} providerName={providerName} load={NO_LOAD} hours={HOURS} />);
  }

  it("gives each provider a row, and a provider's overlapping bands one stack with the most bookable at once", () => {
    renderLanes();
    const rows = screen.getAllByRole("rowheader").map((header) => header.textContent);
    expect(rows).toEqual(["Dr. Ada Brooks", "Dr. Chi Okafor"]);
    const brooks = screen.getAllByRole("row").find((row) => within(row).queryByRole("rowheader", { name: "Dr. Ada Brooks" }));
    if (!brooks) throw new Error("no row for Dr. Brooks");
    expect(within(brooks).getAllByRole("button")).toHaveLength(5);
    expect(within(brooks).getAllByText("up to 3 at once")).toHaveLength(2);
    expect(bandNamed(/^Dr\. Chi Okafor, Afternoon clinic, Wednesday, December 2, 1:00 PM–5:00 PM, capacity 1$/)).toBeTruthy();
  });

  it("moves between bands with the arrow keys and opens the details by keyboard", async () => {
    const { user } = renderLanes();
    await user.tab();
    expect(document.activeElement).toBe(bandNamed(/Dr\. Ada Brooks, Morning clinic, Monday, November 30,/));
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(bandNamed(/Dr\. Chi Okafor, Afternoon clinic, Monday, November 30,/));
    await user.keyboard("{ArrowRight}");
    expect(document.activeElement?.getAttribute("aria-label")).toMatch(/^Dr\. Ada Brooks, (Morning clinic|Procedures), Tuesday, December 1,/);
    await user.keyboard("{Enter}");
    expect(await screen.findByRole("dialog", { name: /: details$/ })).toBeTruthy();
  });
});

describe("the agenda", () => {
  it("lists the week by day: each provider's time, who, and how many at once, overlaps summed", () => {
    renderInNewYork(<AgendaList bands={model.bands} templates={facilityGrid.templates} week={WEEK} today={TODAY} infoOf={infoOf} providerName={providerName} load={NO_LOAD} />);
    const days = within(screen.getByRole("list", { name: "Availability by day" })).getAllByRole("heading", { level: 3 });
    expect(days.map((day) => day.textContent)).toEqual(["Monday, November 30Today", "Tuesday, December 1", "Wednesday, December 2", "Thursday, December 3", "Friday, December 4", "Saturday, December 5", "Sunday, December 6"]);
    const tuesday = screen.getAllByTestId("availability-agenda-day").find((day) => day.getAttribute("data-date") === "2026-12-01");
    if (!tuesday) throw new Error("no Tuesday");
    // The stack's span, then each of its bands with its own.
    expect(within(tuesday).getAllByText("8:30 AM–12:30 PM")).toHaveLength(2);
    expect(within(tuesday).getByText("Dr. Ada Brooks")).toBeTruthy();
    expect(within(tuesday).getByText("up to 3 at once")).toBeTruthy();
    expect(within(tuesday).getByText("10:00 AM–12:00 PM: 3 at once")).toBeTruthy();
    const saturday = screen.getAllByTestId("availability-agenda-day").find((day) => day.getAttribute("data-date") === "2026-12-05");
    expect(saturday && within(saturday).getByText("No bookable time.")).toBeTruthy();
  });

  it("opens this week at today: the days before it are folded into one closed, focusable summary", async () => {
    const { user } = renderInNewYork(<AgendaList bands={model.bands} templates={facilityGrid.templates} week={WEEK} today="2026-12-03" infoOf={infoOf} providerName={providerName} load={NO_LOAD} />);
    const ahead = within(screen.getByRole("list", { name: "Availability by day" })).getAllByRole("heading", { level: 3 });
    expect(ahead.map((day) => day.textContent)).toEqual(["Thursday, December 3Today", "Friday, December 4", "Saturday, December 5", "Sunday, December 6"]);
    const past = screen.getByTestId("availability-agenda-past");
    expect(past.hasAttribute("open")).toBe(false);
    const summary = within(past).getByText("Earlier this week: Mon, Nov 30 to Wed, Dec 2 (past)");
    await user.tab();
    expect(document.activeElement).toBe(summary);
    await user.click(summary);
    expect(past.hasAttribute("open")).toBe(true);
    const earlier = within(screen.getByRole("list", { name: "Availability earlier this week, by day" })).getAllByRole("heading", { level: 3 });
    expect(earlier.map((day) => day.textContent)).toEqual(["Monday, November 30", "Tuesday, December 1", "Wednesday, December 2"]);
  });

  it("folds nothing in a week that has not begun or is over", () => {
    renderInNewYork(<AgendaList bands={model.bands} templates={facilityGrid.templates} week={WEEK} today="2026-12-10" infoOf={infoOf} providerName={providerName} load={NO_LOAD} />);
    expect(screen.queryByTestId("availability-agenda-past")).toBeNull();
    expect(within(screen.getByRole("list", { name: "Availability by day" })).getAllByRole("heading", { level: 3 })).toHaveLength(7);
  });
});
