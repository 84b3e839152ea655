import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { PatientAppointment, PatientAppointmentsResponse } from "#contract/app-api/patient.ts";
import { ApiError } from "#src/api/bff-client.ts";
import { contextPatientAppointmentsQuery } from "#src/api/patient-appointments-query.ts";
import { appointmentTimeText, isScopeNotGranted, PatientAppointments, PatientAppointmentsView, statusText, type PatientAppointmentsState } from "./patient-appointments.tsx";

// Server-rendered markup of the open patient's appointments panel: what it
// says in each state, not how it looks (axe runs in the e2e suite).

const PATIENT = "0b5e6c1a-2f3d-4e5f-8a9b-0c1d2e3f4a5b";
const NEW_YORK_FACILITY = "1a2b3c4d-0000-4000-8000-000000000001";
const CHICAGO_FACILITY = "1a2b3c4d-0000-4000-8000-000000000002";
const ZONES: Record<string, string> = { [NEW_YORK_FACILITY]: "America/New_York", [CHICAGO_FACILITY]: "America/Chicago" };

function appointment(overrides: Partial<PatientAppointment>): PatientAppointment {
  return {
    id: "9f000000-0000-4000-8000-000000000001",
    startsAt: "2026-11-18T15:00:00.000Z",
    endsAt: "2026-11-18T15:30:00.000Z",
    status: "confirmed",
    isNewPatient: false,
    providerId: "2c000000-0000-4000-8000-000000000001",
    providerName: "Maria Chen",
    facilityId: NEW_YORK_FACILITY,
    facilityName: "Riverside (service name)",
    ...overrides,
  };
}

const response = (appointments: PatientAppointment[], hasMore = false): PatientAppointmentsResponse => ({ patientId: PATIENT, appointments, meta: { hasMore } });

const naming = {
  providerName: (id: string) => (id === "2c000000-0000-4000-8000-000000000001" ? "Dr. Maria Chen" : undefined),
  facilityName: (id: string) => (id === NEW_YORK_FACILITY ? "Riverside Dermatology" : undefined),
  zoneOf: (id: string) => ZONES[id] ?? "UTC",
  reader: { locale: "en-GB", userZone: "America/New_York" },
};

/** The visible text, tags dropped and entities decoded. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&#x27;", "'")
    .replaceAll("&amp;", "&")
    .replace(/\s+/g, " ")
    .trim();

const render = (state: PatientAppointmentsState, userZone = naming.reader.userZone) => renderToStaticMarkup(<PatientAppointmentsView state={state} {...naming} reader={{ locale: "en-GB", userZone }} />);

describe("PatientAppointmentsView", () => {
  const list = response([
    appointment({}),
    appointment({ id: "9f000000-0000-4000-8000-000000000002", startsAt: "2026-11-19T16:00:00.000Z", endsAt: "2026-11-19T16:20:00.000Z", status: "arrived", isNewPatient: true, providerId: "2c000000-0000-4000-8000-00000000000f", providerName: "Sam Hidden", facilityId: CHICAGO_FACILITY, facilityName: "Lakeside Clinic" }),
  ]);

  it("is a section named by its heading, with the appointments as a list in the order given", () => {
    const html = render({ kind: "loaded", data: list });
    expect(html).toMatch(/^<section aria-labelledby="([^"]+)"[^>]*>.*<h2 id="\1"/);
    expect(textOf(html)).toContain("This patient's upcoming appointments");
    expect(html.match(/<li/g)).toHaveLength(2);
    expect(html.indexOf("Wed 18 Nov")).toBeLessThan(html.indexOf("Thu 19 Nov"));
    expect(html).toContain('<time dateTime="2026-11-18T15:00:00.000Z"');
  });

  it("gives each appointment's day and time in its facility's zone, naming the zone only where it differs from the user's", () => {
    const text = textOf(render({ kind: "loaded", data: list }));
    expect(text).toContain("Wed 18 Nov, 10:00–10:30 Confirmed");
    expect(text).toContain("Thu 19 Nov, 10:00–10:20 CST Arrived New patient");
    const fromChicago = textOf(render({ kind: "loaded", data: list }, "America/Chicago"));
    expect(fromChicago).toContain("Wed 18 Nov, 10:00–10:30 EST");
    expect(fromChicago).toContain("Thu 19 Nov, 10:00–10:20 Arrived");
  });

  it("names provider and facility as the app does, else as the service does", () => {
    const text = textOf(render({ kind: "loaded", data: list }));
    expect(text).toContain("Dr. Maria Chen · Riverside Dermatology");
    expect(text).toContain("Sam Hidden · Lakeside Clinic");
  });

  it("says when there is nothing upcoming, and when the list was cut", () => {
    expect(textOf(render({ kind: "loaded", data: response([]) }))).toContain("No upcoming appointments in the EHR");
    expect(render({ kind: "loaded", data: response([]) })).not.toContain("<ol");
    expect(textOf(render({ kind: "loaded", data: response([appointment({})], true) }))).toContain("more appointments in the EHR than are listed here");
    expect(textOf(render({ kind: "loaded", data: response([appointment({})]) }))).not.toContain("more appointments in the EHR");
  });

  it("is busy with a placeholder while loading", () => {
    const html = render({ kind: "loading" });
    expect(html).toContain('aria-busy="true"');
    expect(html).not.toContain("<ol");
  });

  it("says plainly that the organization has not granted read:appointments", () => {
    expect(textOf(render({ kind: "scope-not-granted" }))).toContain(
      "This organization has not granted Tandem access to appointments (read:appointments), so the patient's other appointments cannot be shown.",
    );
  });

  it("shows any other failure as the app's error notice with a retry", () => {
    const error = new ApiError(503, { code: "upstream_unavailable", message: "The Clinic Data Service could not be reached", trace_id: "tdm_1" });
    const html = render({ kind: "error", error, onRetry: () => undefined });
    expect(html).toContain('role="alert"');
    expect(textOf(html)).toContain("The clinic data service did not answer");
    expect(textOf(html)).toContain("Try again");
  });
});

describe("PatientAppointments", () => {
  const renderWith = (client: QueryClient, patientId: string | null) =>
    renderToStaticMarkup(
      <QueryClientProvider client={client}>
        <PatientAppointments patientId={patientId} {...naming} />
      </QueryClientProvider>,
    );

  it("renders nothing without a patient", () => {
    expect(renderWith(new QueryClient(), null)).toBe("");
  });

  it("shows the list it has for this patient, and never a list that came back for another", () => {
    const client = new QueryClient();
    client.setQueryData(contextPatientAppointmentsQuery(PATIENT).queryKey, response([appointment({})]));
    expect(renderWith(client, PATIENT)).toContain("<li");
    const other = "7d000000-0000-4000-8000-000000000009";
    client.setQueryData(contextPatientAppointmentsQuery(other).queryKey, response([appointment({})]));
    const html = renderWith(client, other);
    expect(html).not.toContain("<li");
    expect(html).toContain('aria-busy="true"');
  });
});

describe("panel words", () => {
  it("tells the missing scope apart from other refusals", () => {
    expect(isScopeNotGranted(new ApiError(403, { code: "scope_not_granted", message: "no", trace_id: "t", missing_scope: "read:appointments" }))).toBe(true);
    expect(isScopeNotGranted(new ApiError(403, { code: "scope_not_granted", message: "no", trace_id: "t", missing_scope: "read:patients" }))).toBe(false);
    expect(isScopeNotGranted(new ApiError(403, { code: "forbidden", message: "no", trace_id: "t" }))).toBe(false);
    expect(isScopeNotGranted(new Error("offline"))).toBe(false);
  });

  it("writes statuses in words, unlisted ones as the service gave them", () => {
    expect(statusText("confirmed")).toBe("Confirmed");
    expect(statusText("checked_in")).toBe("Checked in");
    expect(statusText("")).toBe("Status not given");
  });

  it("writes a time range in the facility's zone, the zone named only where its offset differs from the user's", () => {
    const visit = { startsAt: "2026-11-20T15:00:00.000Z", endsAt: "2026-11-20T15:45:00.000Z" };
    expect(appointmentTimeText(visit, "America/New_York", { locale: "en-GB", userZone: "America/New_York" })).toBe("10:00–10:45");
    expect(appointmentTimeText(visit, "America/New_York", { locale: "en-GB", userZone: "America/Chicago" })).toBe("10:00–10:45 EST");
    // In November Lord Howe and Sydney are both 11 hours ahead of UTC: nothing to name.
    expect(appointmentTimeText(visit, "Australia/Lord_Howe", { locale: "en-GB", userZone: "Australia/Sydney" })).toBe("02:00–02:45");
  });

});
