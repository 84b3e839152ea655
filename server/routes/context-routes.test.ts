import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { appErrorBody } from "#contract/app-api/errors.ts";
import { patientAppointmentsResponse } from "#contract/app-api/patient.ts";
import { TERMINAL_APPOINTMENT_STATUSES } from "#contract/clinic-api/appointment.ts";
import { ORG_A_ID, ORG_B_ID } from "../../emulator/world/identities.ts";
import type { OrgState } from "../../emulator/service/service-state.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { createBffHarness, HARNESS_NOW, type BffHarness } from "../testing/bff-harness.ts";

// GET /api/context/patient/appointments against the emulator: only the
// token's patient, only what has not ended and is not cancelled, no-show or
// completed, earliest first; refused without a patient, with a patientId in
// the query, or without read:appointments; every read audited.

const PATH = "/api/context/patient/appointments";
const HOUR = 3_600_000;

let store: Store;
let harness: BffHarness;
let patientId: string;
let otherPatientId: string;
/** What the test booked in the EHR, by what it is meant to show. */
const booked: Record<"dayAfter" | "tomorrow" | "inProgress" | "ended" | "cancelled" | "noShow" | "completed" | "otherPatient", string> = {
  dayAfter: "",
  tomorrow: "",
  inProgress: "",
  ended: "",
  cancelled: "",
  noShow: "",
  completed: "",
  otherPatient: "",
};

function orgA(): OrgState {
  const org = harness.emulator.emulator.state.org(ORG_A_ID);
  if (!org) throw new Error("no org A");
  return org;
}

async function bookInEhr(patient: string, startMs: number, minutes: number, status?: string): Promise<string> {
  const org = orgA();
  const facility = org.ehr.facilities[0];
  if (!facility) throw new Error("no facility in org A");
  const result = await harness.emulator.sandbox("POST", `/ehr/${ORG_A_ID}/appointments`, {
    patientId: patient,
    providerId: harness.userWithRole("Physician"),
    facilityId: facility.id,
    startsAt: new Date(startMs).toISOString(),
    endsAt: new Date(startMs + minutes * 60_000).toISOString(),
    ...(status ? { status } : {}),
  });
  const id = (result.body as { appointment?: { id?: string } }).appointment?.id;
  if (result.status !== 201 || !id) throw new Error(`booking failed: ${JSON.stringify(result.body)}`);
  return id;
}

async function tokenWithPatient(patient: string | undefined, organizationId = ORG_A_ID): Promise<string> {
  return harness.hostToken({ organizationId, userId: harness.userWithRole("Front Desk", organizationId), ...(patient ? { patientId: patient } : {}) });
}

async function list(patient = patientId) {
  const response = await harness.api(PATH, { token: await tokenWithPatient(patient) });
  expect(response.status).toBe(200);
  return z.parse(patientAppointmentsResponse, await response.json());
}

const appointmentCalls = () => harness.upstreamRequests.filter((line) => new URL(line.split(" ")[1] ?? "").pathname === "/v1/appointments");

beforeAll(async () => {
  store = await createStore();
  harness = await createBffHarness(store);
  const [patient, other] = orgA().ehr.patients;
  if (!patient || !other) throw new Error("org A needs two patients");
  patientId = patient.id;
  otherPatientId = other.id;
  const now = HARNESS_NOW;
  // Booked out of time order, so the answer's order is not the booking order.
  booked.dayAfter = await bookInEhr(patientId, now + 49 * HOUR, 30);
  booked.tomorrow = await bookInEhr(patientId, now + 25 * HOUR, 20);
  booked.inProgress = await bookInEhr(patientId, now - 10 * 60_000, 60, "arrived");
  booked.ended = await bookInEhr(patientId, now - 3 * HOUR, 30);
  booked.cancelled = await bookInEhr(patientId, now + 26 * HOUR, 20, "cancelled");
  booked.noShow = await bookInEhr(patientId, now + 27 * HOUR, 20, "no_show");
  booked.completed = await bookInEhr(patientId, now + 28 * HOUR, 20, "completed");
  booked.otherPatient = await bookInEhr(otherPatientId, now + 30 * HOUR, 20);
  // The service sees the EHR at its next sync.
  await harness.emulator.sandbox("POST", "/sync", { organizationId: ORG_A_ID });
});

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(async () => {
  await harness.close();
  await store.close();
});

describe("GET /api/context/patient/appointments", () => {
  it("lists the token's patient's appointments that have not ended and are not cancelled, no-show or completed, earliest first", async () => {
    const body = await list();
    const ids = body.appointments.map((appointment) => appointment.id);
    expect(body.patientId).toBe(patientId);
    expect(ids).toEqual(expect.arrayContaining([booked.inProgress, booked.tomorrow, booked.dayAfter]));
    for (const left of [booked.ended, booked.cancelled, booked.noShow, booked.completed, booked.otherPatient]) expect(ids).not.toContain(left);
    expect(ids.indexOf(booked.inProgress)).toBeLessThan(ids.indexOf(booked.tomorrow));
    expect(ids.indexOf(booked.tomorrow)).toBeLessThan(ids.indexOf(booked.dayAfter));

    // Exactly what the service's mirror holds for this patient and has not ended (the seed's own appointments included).
    const expected = [...orgA().mirror.appointments.values()]
      .filter((record) => record.patientId === patientId && Date.parse(record.scheduledEndDate) > harness.now() && !(TERMINAL_APPOINTMENT_STATUSES as readonly string[]).includes(record.status))
      .sort((a, b) => a.scheduledStartDate.localeCompare(b.scheduledStartDate))
      .map((record) => record.id);
    expect(ids).toEqual(expected);
    const starts = body.appointments.map((appointment) => Date.parse(appointment.startsAt));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(body.meta.hasMore).toBe(false);

    const tomorrow = body.appointments.find((appointment) => appointment.id === booked.tomorrow);
    const physician = orgA().ehr.providers.find((provider) => provider.id === harness.userWithRole("Physician"));
    expect(tomorrow).toEqual({
      id: booked.tomorrow,
      startsAt: new Date(HARNESS_NOW + 25 * HOUR).toISOString(),
      endsAt: new Date(HARNESS_NOW + 25 * HOUR + 20 * 60_000).toISOString(),
      status: "confirmed",
      isNewPatient: false,
      providerId: physician?.id,
      providerName: `${physician?.firstName ?? ""} ${physician?.lastName ?? ""}`,
      facilityId: orgA().ehr.facilities[0]?.id,
      facilityName: orgA().ehr.facilities[0]?.name,
    });
  });

  it("asks the service for the patient from yesterday in UTC on, by start time, one full page", async () => {
    const before = appointmentCalls().length;
    await list();
    const calls = appointmentCalls().slice(before);
    expect(calls).toHaveLength(1);
    const query = new URL(calls[0]?.split(" ")[1] ?? "").searchParams;
    expect(Object.fromEntries(query)).toEqual({
      patientId,
      dateFrom: new Date(harness.now() - 24 * HOUR).toISOString().slice(0, 10),
      sortBy: "scheduledStartDate",
      sortOrder: "asc",
      page: "1",
      pageSize: "100",
    });
  });

  it("refuses a patientId in the query instead of widening the list to it", async () => {
    const before = appointmentCalls().length;
    for (const query of [`?patientId=${otherPatientId}`, `?patientId=${patientId}`]) {
      const response = await harness.api(`${PATH}${query}`, { token: await tokenWithPatient(patientId) });
      expect(response.status).toBe(400);
      const error = z.parse(appErrorBody, await response.json());
      expect(error.code).toBe("bad_request");
      expect(error.message).toMatch(/^patientId: /);
    }
    expect(appointmentCalls().length).toBe(before);
  });

  it("answers 404 when no patient is in view in the EHR", async () => {
    const before = appointmentCalls().length;
    const response = await harness.api(PATH, { token: await tokenWithPatient(undefined) });
    expect(response.status).toBe(404);
    const error = z.parse(appErrorBody, await response.json());
    expect(error).toMatchObject({ code: "not_found", message: "No patient is in view in the EHR" });
    expect(appointmentCalls().length).toBe(before);
  });

  it("answers 403 scope_not_granted naming read:appointments when the installation does not grant it, without asking the service", async () => {
    // read:appointments is a required scope of today's manifest, so no sandbox
    // organization lacks it: the registry is made to answer without it.
    const registry = harness.bff.installations;
    const granted = registry.grantedScopes.bind(registry);
    vi.spyOn(registry, "grantedScopes").mockImplementation((installation) => {
      const scopes = granted(installation);
      scopes.delete("read:appointments");
      return scopes;
    });
    const before = appointmentCalls().length;
    const response = await harness.api(PATH, { token: await tokenWithPatient(patientId) });
    expect(response.status).toBe(403);
    const error = z.parse(appErrorBody, await response.json());
    expect(error.code).toBe("scope_not_granted");
    expect(error.missing_scope).toBe("read:appointments");
    expect(appointmentCalls().length).toBe(before);
  });

  it("works in an organization without read:patients (org B), where the patient banner cannot", async () => {
    const org = harness.emulator.emulator.state.org(ORG_B_ID);
    const patient = org?.ehr.patients[0];
    if (!patient) throw new Error("no patient in org B");
    const token = await tokenWithPatient(patient.id, ORG_B_ID);
    const banner = await harness.api("/api/context/patient", { token });
    expect(banner.status).toBe(403);
    const response = await harness.api(PATH, { token });
    expect(response.status).toBe(200);
    const body = z.parse(patientAppointmentsResponse, await response.json());
    expect(body.patientId).toBe(patient.id);
    expect(body.appointments.every((appointment) => Date.parse(appointment.endsAt) > harness.now())).toBe(true);
  });

  it("writes a PHI read of the patient's appointments to the audit trail", async () => {
    const frontDesk = harness.userWithRole("Front Desk");
    const response = await harness.api(PATH, { token: await tokenWithPatient(patientId) });
    expect(response.status).toBe(200);
    await store.audit.flush();
    const entries = (await store.audit.list(ORG_A_ID)).filter((entry) => entry.resourceType === "patient_appointments");
    expect(entries.some((entry) => entry.action === "read" && entry.resourceId === patientId && entry.accountId === frontDesk)).toBe(true);
  });
});
