import { QueryClient, type QueryKey } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { signInStateQuery } from "../features/standalone/standalone-queries.ts";
import { availabilityLoadWindowQuery, availabilityWindowQuery } from "./availability-queries.ts";
import { appointmentTypesQuery, facilitiesQuery, providersQuery } from "./directory-queries.ts";
import { heldSlotsQuery } from "./holds-queries.ts";
import { noteChangesQuery } from "./note-changes-queries.ts";
import { noteDraftQuery, noteImagesQuery, noteQuery, noteTasksQuery } from "./note-queries.ts";
import { contextPatientAppointmentsQuery } from "./patient-appointments-query.ts";
import { contextPatientQuery } from "./patient-query.ts";
import { invalidateEveryRead, queryKeys } from "./query-keys.ts";
import { recentNotesQuery } from "./recent-notes-query.ts";
import { sessionQuery } from "./session-query.ts";
import { slotsQuery } from "./slots-queries.ts";

const startsWith = (key: QueryKey, prefix: QueryKey) => prefix.every((part, index) => key[index] === part);

const SEARCH = { appointmentTypeId: "atp_1", facilityIds: ["fac_1"], startDate: "2026-11-23", endDate: "2026-12-06" };
const WINDOW = { facilityId: "fac_1", startDate: "2026-11-23", endDate: "2026-11-29" };

/** Every read of the organization's data the SPA makes, as its factory keys it. */
const organizationReads: readonly QueryKey[] = [
  sessionQuery().queryKey,
  providersQuery().queryKey,
  facilitiesQuery().queryKey,
  appointmentTypesQuery().queryKey,
  slotsQuery(SEARCH).queryKey,
  heldSlotsQuery().queryKey,
  availabilityWindowQuery(WINDOW).queryKey,
  availabilityLoadWindowQuery(WINDOW).queryKey,
  noteQuery("note_1").queryKey,
  noteDraftQuery("note_1").queryKey,
  noteTasksQuery("note_1").queryKey,
  noteImagesQuery("note_1").queryKey,
  noteChangesQuery("note_1").queryKey,
  recentNotesQuery().queryKey,
  contextPatientQuery("pat_1").queryKey,
  contextPatientAppointmentsQuery("pat_1").queryKey,
];

describe("query keys", () => {
  it("puts every read of the organization's data under one root, and the sign-in state outside it", () => {
    for (const key of organizationReads) expect(startsWith(key, queryKeys.organization.all), JSON.stringify(key)).toBe(true);
    expect(startsWith(signInStateQuery().queryKey, queryKeys.organization.all)).toBe(false);
    expect(startsWith(signInStateQuery().queryKey, queryKeys.standalone.all)).toBe(true);
  });

  it("gives each family a prefix that covers its members", () => {
    expect(startsWith(slotsQuery(SEARCH).queryKey, queryKeys.slots.searches)).toBe(true);
    expect(startsWith(queryKeys.slots.searches, queryKeys.slots.all)).toBe(true);
    expect(startsWith(availabilityWindowQuery(WINDOW).queryKey, queryKeys.availability.all)).toBe(true);
    expect(startsWith(availabilityLoadWindowQuery(WINDOW).queryKey, queryKeys.availability.all)).toBe(true);
    expect(startsWith(contextPatientAppointmentsQuery("pat_1").queryKey, queryKeys.patientAppointments.all)).toBe(true);
    expect(startsWith(providersQuery().queryKey, queryKeys.directory.all)).toBe(true);
    // A note's fields are not a prefix of its draft, tasks or images: invalidating one leaves the others.
    expect(startsWith(noteDraftQuery("note_1").queryKey, noteQuery("note_1").queryKey)).toBe(false);
  });

  it("reads everything again on invalidateEveryRead", async () => {
    const client = new QueryClient();
    for (const key of [...organizationReads, signInStateQuery().queryKey]) client.setQueryData(key, {});
    await invalidateEveryRead(client);
    expect(client.getQueryCache().getAll().filter((query) => !query.state.isInvalidated)).toEqual([]);
  });
});
