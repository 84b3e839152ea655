import { describe, expect, it } from "vitest";
import type { AvailabilityTemplate } from "../clinic-api/schedule.ts";
import { expandTemplate, type ExpansionWindow } from "./expand-template.ts";

// A fixed set of templates over both 2026 DST seasons, compared with a
// committed snapshot. scripts/test-unit.sh runs this under four host zones,
// and all must match the same snapshot (DESIGN.md: results never depend on
// the time zone of the machine). Review a changed snapshot line by line.

interface GoldenTemplate {
  name: string;
  zone: string;
  start: string;
  end: string;
  rrule: string;
  until?: string;
  active?: boolean;
}

const goldenTemplates: GoldenTemplate[] = [
  { name: "new-york night, 2 h on spring-forward, 4 h on fall-back", zone: "America/New_York", start: "01:00", end: "04:00", rrule: "DTSTART;TZID=America/New_York:20250105T010000\nRRULE:FREQ=WEEKLY;BYDAY=SU" },
  { name: "new-york start in the gap", zone: "America/New_York", start: "02:30", end: "05:00", rrule: "DTSTART;TZID=America/New_York:20250105T023000\nRRULE:FREQ=WEEKLY;BYDAY=SU" },
  { name: "new-york 02:30-03:00, dropped on 2026-03-08", zone: "America/New_York", start: "02:30", end: "03:00", rrule: "DTSTART;TZID=America/New_York:20260301T023000\nRRULE:FREQ=WEEKLY;BYDAY=SU" },
  { name: "new-york overnight weekends", zone: "America/New_York", start: "22:00", end: "06:00", rrule: "DTSTART;TZID=America/New_York:20250104T220000\nRRULE:FREQ=WEEKLY;BYDAY=SA,SU" },
  { name: "new-york biweekly from 2016 with an EXDATE", zone: "America/New_York", start: "09:00", end: "17:00", rrule: "DTSTART;TZID=America/New_York:20160104T090000\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH\nEXDATE;TZID=America/New_York:20260319T090000" },
  { name: "new-york without DTSTART (anchored on the window)", zone: "America/New_York", start: "10:00", end: "11:00", rrule: "RRULE:FREQ=WEEKLY;INTERVAL=2" },
  { name: "new-york UTC EXDATE on fall-back day", zone: "America/New_York", start: "08:00", end: "12:00", rrule: "DTSTART;TZID=America/New_York:20260104T080000\nRRULE:FREQ=WEEKLY;BYDAY=SU\nEXDATE:20261101T130000Z" },
  { name: "chicago first and third Monday", zone: "America/Chicago", start: "08:00", end: "12:00", rrule: "DTSTART;TZID=America/Chicago:20240101T080000\nRRULE:FREQ=MONTHLY;BYDAY=1MO,3MO" },
  { name: "chicago COUNT=12 Tuesdays", zone: "America/Chicago", start: "13:00", end: "17:00", rrule: "DTSTART;TZID=America/Chicago:20260106T130000\nRRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=12" },
  { name: "london hour in the gap", zone: "Europe/London", start: "01:00", end: "02:00", rrule: "DTSTART;TZID=Europe/London:20250105T010000\nRRULE:FREQ=WEEKLY;BYDAY=SU" },
  { name: "london UTC UNTIL (2026-09-16 00:00 BST) before recurrence.until", zone: "Europe/London", start: "09:00", end: "12:00", rrule: "DTSTART;TZID=Europe/London:20260105T090000\nRRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;UNTIL=20260915T230000Z", until: "2026-09-30" },
  { name: "london last Sunday of March and October", zone: "Europe/London", start: "00:30", end: "03:30", rrule: "DTSTART;TZID=Europe/London:20200329T003000\nRRULE:FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU" },
  { name: "sydney across the fold and the gap", zone: "Australia/Sydney", start: "01:00", end: "04:00", rrule: "DTSTART;TZID=Australia/Sydney:20250105T010000\nRRULE:FREQ=WEEKLY;BYDAY=SU" },
  { name: "sydney start in the gap", zone: "Australia/Sydney", start: "02:30", end: "04:00", rrule: "DTSTART;TZID=Australia/Sydney:20250105T023000\nRRULE:FREQ=WEEKLY;BYDAY=SU" },
  { name: "sydney every third day", zone: "Australia/Sydney", start: "07:00", end: "11:00", rrule: "DTSTART;TZID=Australia/Sydney:20230301T070000\nRRULE:FREQ=DAILY;INTERVAL=3;BYDAY=MO,TU,WE,TH,FR,SU" },
  { name: "lord-howe 02:15 in the 30-minute gap", zone: "Australia/Lord_Howe", start: "02:15", end: "03:00", rrule: "DTSTART;TZID=Australia/Lord_Howe:20250105T021500\nRRULE:FREQ=WEEKLY;BYDAY=SU" },
  { name: "lord-howe across the 30-minute fold", zone: "Australia/Lord_Howe", start: "01:00", end: "03:00", rrule: "DTSTART;TZID=Australia/Lord_Howe:20250105T010000\nRRULE:FREQ=WEEKLY;BYDAY=SU" },
  { name: "lord-howe biweekly evenings from 2021", zone: "Australia/Lord_Howe", start: "18:00", end: "23:30", rrule: "DTSTART;TZID=Australia/Lord_Howe:20210102T180000\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=SA" },
  { name: "santiago from a missing midnight", zone: "America/Santiago", start: "00:00", end: "08:00", rrule: "DTSTART;TZID=America/Santiago:20250105T000000\nRRULE:FREQ=WEEKLY;BYDAY=SU" },
  { name: "santiago to a missing midnight", zone: "America/Santiago", start: "22:00", end: "00:00", rrule: "DTSTART;TZID=America/Santiago:20250104T220000\nRRULE:FREQ=WEEKLY;BYDAY=SA" },
  { name: "sao-paulo biweekly, no DST", zone: "America/Sao_Paulo", start: "00:00", end: "06:00", rrule: "DTSTART;TZID=America/Sao_Paulo:20250105T000000\nRRULE:FREQ=WEEKLY;INTERVAL=2;WKST=SU;BYDAY=SU,SA" },
  { name: "kolkata 24 hours from Friday", zone: "Asia/Kolkata", start: "09:00", end: "09:00", rrule: "DTSTART;TZID=Asia/Kolkata:20250103T090000\nRRULE:FREQ=WEEKLY;BYDAY=FR" },
  { name: "inactive", zone: "America/New_York", start: "09:00", end: "17:00", rrule: "DTSTART:20250101\nRRULE:FREQ=DAILY", active: false },
];

// Spring: New York 03-08, London 03-29, Sydney and Lord Howe 04-05.
// Autumn: Santiago 09-06, Sydney and Lord Howe 10-04, London 10-25, New York 11-01.
const windows: ExpansionWindow[] = [
  { startDate: "2026-03-06", endDate: "2026-04-06" },
  { startDate: "2026-09-04", endDate: "2026-11-02" },
];

function toTemplate(golden: GoldenTemplate, index: number): AvailabilityTemplate {
  const hex = index.toString(16).padStart(32, "0");
  return {
    id: `avt_${hex}`,
    externalId: `golden-${index}`,
    providerId: `prv_${hex}`,
    facilityId: `fac_${hex}`,
    name: golden.name,
    startTimeLocal: golden.start,
    endTimeLocal: golden.end,
    timezone: golden.zone,
    slotIntervalMinutes: 15,
    concurrency: 1 + (index % 3),
    recurrence: { rrule: golden.rrule, until: golden.until ?? null },
    allowedAppointmentTypeIds: null,
    active: golden.active ?? true,
  };
}

describe("expandTemplate golden", () => {
  it("expands the golden templates exactly as the committed snapshot says", () => {
    const expanded = Object.fromEntries(
      goldenTemplates.map((golden, index) => {
        const template = toTemplate(golden, index);
        const lines = windows.flatMap((window) =>
          expandTemplate(template, window).map(
            ({ startsAt, endsAt, concurrency }) => `${startsAt} → ${endsAt} (${(Date.parse(endsAt) - Date.parse(startsAt)) / 60_000} min, x${concurrency})`,
          ),
        );
        return [golden.name, lines];
      }),
    );
    expect(expanded).toMatchSnapshot();
  });
});
