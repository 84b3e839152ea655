import { describe, expect, it } from "vitest";
import {
  billingLineTotal,
  billingTotal,
  dateOfBirthText,
  formatAmount,
  formatBloodPressure,
  formatBmi,
  formatBsa,
  formatFio2,
  formatHeight,
  formatNoteDate,
  formatNoteDateTime,
  formatOxygenSaturation,
  formatPulse,
  formatRespiration,
  formatTemperature,
  formatNoteTimeRange,
  formatUnits,
  formatVisitDate,
  formatWeight,
  initialsOf,
  noteStatusText,
  parseNoteInstant,
  parseTextTimestamp,
  patientDisplayName,
  readableValue,
} from "./note-format.ts";
import { buildNoteFixture } from "./testing/note-fixture.ts";

// Every expectation names its locale and zones: these pass whatever the
// machine's zone (run under TZ=UTC and TZ=Australia/Lord_Howe). Dates and
// times are the app's formatter's (src/lib/time-format.ts, tested there
// across locales); these check what the note asks of it.

const at = (text: string) => parseTextTimestamp(text);
/** A reader in London (UTC in winter) of a note kept in `zone`, in British English. */
const londoner = (zone: string) => ({ locale: "en-GB", zone, userZone: "Europe/London" });

describe("parseTextTimestamp", () => {
  it("reads the note's UTC text form", () => {
    expect(at("2026-11-20 14:05:00.000000+00")).toBe(Date.UTC(2026, 10, 20, 14, 5));
  });

  it("keeps milliseconds and floors microseconds", () => {
    expect(at("2026-11-20 14:05:07.123999+00")).toBe(Date.UTC(2026, 10, 20, 14, 5, 7, 123));
  });

  it.each(["", "2026-11-20T14:05:00.000Z", "2026-11-20 14:05:00+00", "2026-11-20 14:05:00.000000+01", "2026-02-30 10:00:00.000000+00", "2026-13-01 10:00:00.000000+00", "2026-11-20 24:00:00.000000+00"])(
    "throws on %j",
    (text) => {
      expect(() => parseTextTimestamp(text)).toThrow();
    },
  );
});

describe("parseNoteInstant", () => {
  it("reads text timestamps and ISO 8601 with a zone", () => {
    expect(parseNoteInstant("2026-11-20 14:05:00.000000+00")).toBe(Date.UTC(2026, 10, 20, 14, 5));
    expect(parseNoteInstant("2026-11-20T14:05:00.000Z")).toBe(Date.UTC(2026, 10, 20, 14, 5));
    expect(parseNoteInstant("2026-11-20T09:05:00-05:00")).toBe(Date.UTC(2026, 10, 20, 14, 5));
  });

  it("gives null for text without a zone, dates and blanks, never reading them in the machine's zone", () => {
    expect(parseNoteInstant("2026-11-20T14:05:00")).toBeNull();
    expect(parseNoteInstant("2026-11-20")).toBeNull();
    expect(parseNoteInstant("")).toBeNull();
    expect(parseNoteInstant(null)).toBeNull();
  });
});

describe("formatVisitDate", () => {
  it("shows the facility's wall clock, its zone named where it differs from the user's", () => {
    expect(formatVisitDate(at("2026-11-20 14:05:00.000000+00"), londoner("America/New_York"))).toBe("Fri, 20 Nov 2026, 09:05 EST");
    expect(formatVisitDate(at("2026-11-20 14:05:00.000000+00"), londoner("UTC"))).toBe("Fri, 20 Nov 2026, 14:05");
    expect(formatVisitDate(at("2026-11-20 14:05:00.000000+00"), { locale: "en-US", zone: "America/New_York", userZone: "America/New_York" })).toBe("Fri, Nov 20, 2026, 9:05 AM");
  });

  it("moves to the next local day east of UTC", () => {
    expect(formatVisitDate(at("2026-11-20 14:05:00.000000+00"), londoner("Australia/Lord_Howe"))).toBe("Sat, 21 Nov 2026, 01:05 LHDT");
  });

  it("crosses New York's spring-forward gap", () => {
    expect(formatVisitDate(at("2026-03-08 06:59:00.000000+00"), londoner("America/New_York"))).toBe("Sun, 8 Mar 2026, 01:59 EST");
    expect(formatVisitDate(at("2026-03-08 07:00:00.000000+00"), londoner("America/New_York"))).toBe("Sun, 8 Mar 2026, 03:00 EDT");
  });

  it("tells apart the two 01:30s of New York's fall-back night by zone name, even for a user in New York", () => {
    const newYorker = { locale: "en-GB", zone: "America/New_York", userZone: "America/New_York" };
    expect(formatVisitDate(at("2026-11-01 05:30:00.000000+00"), newYorker)).toBe("Sun, 1 Nov 2026, 01:30 EDT");
    expect(formatVisitDate(at("2026-11-01 06:30:00.000000+00"), newYorker)).toBe("Sun, 1 Nov 2026, 01:30 EST");
  });

  it("follows Lord Howe's half-hour shift back", () => {
    expect(formatVisitDate(at("2026-04-04 14:59:00.000000+00"), londoner("Australia/Lord_Howe"))).toBe("Sun, 5 Apr 2026, 01:59 LHDT");
    expect(formatVisitDate(at("2026-04-04 15:00:00.000000+00"), londoner("Australia/Lord_Howe"))).toBe("Sun, 5 Apr 2026, 01:30 LHST");
  });
});

describe("formatNoteTimeRange", () => {
  it("names the zone once within a day", () => {
    expect(formatNoteTimeRange(at("2026-11-20 14:00:00.000000+00"), at("2026-11-20 14:20:00.000000+00"), londoner("America/New_York"))).toBe("Fri, 20 Nov 2026, 09:00–09:20 EST");
  });

  it("names both zones across a clock change", () => {
    expect(formatNoteTimeRange(at("2026-11-01 05:30:00.000000+00"), at("2026-11-01 06:30:00.000000+00"), londoner("America/New_York"))).toBe("Sun, 1 Nov 2026, 01:30 EDT – 01:30 EST");
  });

  it("names the end's date past midnight", () => {
    expect(formatNoteTimeRange(at("2026-11-21 04:30:00.000000+00"), at("2026-11-21 05:30:00.000000+00"), londoner("America/New_York"))).toBe("Fri, 20 Nov 2026, 23:30 EST – Sat, 21 Nov 2026, 00:30 EST");
  });
});

describe("note dates", () => {
  it("shows timestamp fields in the zone and leaves other text as written", () => {
    expect(formatNoteDateTime("2026-11-20 14:11:00.000000+00", londoner("America/New_York"))).toBe("Fri, 20 Nov 2026, 09:11 EST");
    expect(formatNoteDateTime("yesterday", londoner("America/New_York"))).toBe("yesterday");
  });

  it("takes an ISO instant's date in the zone and a plain date as it is", () => {
    expect(formatNoteDate("2026-11-21T03:00:00.000Z", londoner("America/New_York"))).toBe("Fri, 20 Nov 2026");
    expect(formatNoteDate("2026-11-21", londoner("America/New_York"))).toBe("21 Nov 2026");
    expect(formatNoteDate("2026-11-21", { locale: "de-DE", zone: "America/New_York", userZone: "Europe/Berlin" })).toBe("21. Nov. 2026");
  });

  it("gives the age at the visit's local date", () => {
    // 03:00 UTC on the birthday is still the day before in New York.
    expect(dateOfBirthText("1968-03-14", at("2026-03-14 03:00:00.000000+00"), londoner("America/New_York"))).toBe("DOB 14 Mar 1968 (57 y at visit)");
    expect(dateOfBirthText("1968-03-14", at("2026-03-14 03:00:00.000000+00"), londoner("Australia/Lord_Howe"))).toBe("DOB 14 Mar 1968 (58 y at visit)");
  });
});

describe("vitals", () => {
  it("uses the unit each type field names", () => {
    expect(formatTemperature(98.2, "F")).toBe("98.2 °F");
    expect(formatTemperature(36.8, "C")).toBe("36.8 °C");
    expect(formatWeight(154.3, "lbs")).toBe("154.3 lb");
    expect(formatWeight(70, "kg")).toBe("70 kg");
    expect(formatHeight(65.4, "in")).toBe("65.4 in");
    expect(formatHeight(172.5, "cm")).toBe("172.5 cm");
  });

  it("shows the bare number when the type is null and an unknown type as written", () => {
    expect(formatTemperature(37, null)).toBe("37");
    expect(formatWeight(70, "")).toBe("70");
    expect(formatHeight(5.5, "ft")).toBe("5.5 ft");
  });

  it("gives null for a missing reading", () => {
    expect(formatTemperature(null, "F")).toBeNull();
    expect(formatBloodPressure(null, null)).toBeNull();
    expect(formatPulse(null)).toBeNull();
    expect(formatBsa(null)).toBeNull();
  });

  it("writes the other readings with their units", () => {
    expect(formatBloodPressure(120, 80)).toBe("120/80 mmHg");
    expect(formatBloodPressure(124, 78, "Sitting")).toBe("124/78 mmHg, sitting");
    expect(formatBloodPressure(120, null)).toBe("Systolic 120 mmHg (diastolic not recorded)");
    expect(formatPulse(72)).toBe("72 bpm");
    expect(formatRespiration(14)).toBe("14/min");
    expect(formatOxygenSaturation(98)).toBe("98%");
    expect(formatFio2(21, "Room air")).toBe("21% (room air)");
    expect(formatFio2(null, "Room air")).toBe("Room air");
    expect(formatBmi(25.4)).toBe("25.4 kg/m²");
    expect(formatBsa("1.78")).toBe("1.78 m²");
  });
});

describe("billing", () => {
  it("formats amounts and units without guessing a currency", () => {
    expect(formatAmount(92)).toBe("92.00");
    expect(formatAmount(1234.5)).toBe("1,234.50");
    expect(formatUnits(1)).toBe("1 unit");
    expect(formatUnits(3)).toBe("3 units");
  });

  it("totals lines to the cent", () => {
    expect(billingLineTotal({ units: 3, unitPrice: 0.1 })).toBe(0.3);
    expect(
      billingTotal([
        { units: 1, unitPrice: 92 },
        { units: 2, unitPrice: 60.05 },
      ]),
    ).toBe(212.1);
    expect(billingTotal([])).toBe(0);
  });
});

describe("names and statuses", () => {
  it("puts statuses in words", () => {
    expect(noteStatusText("awaiting_sign")).toBe("Awaiting signature");
    expect(noteStatusText("signed")).toBe("Signed");
    expect(noteStatusText("in_progress")).toBe("In progress");
    expect(noteStatusText("ready_for_review")).toBe("Ready for review");
    expect(readableValue("  ")).toBe("Not stated");
  });

  it("names the patient", () => {
    const note = buildNoteFixture();
    expect(patientDisplayName(note.patient)).toBe("Jane Elizabeth Doe");
    expect(initialsOf(note.patient)).toBe("JD");
  });
});
