import { QueryClient, type QueryKey } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { signInStateQuery } from "../features/standalone/standalone-queries.ts";
import { switchCacheIdentity, type CacheIdentity } from "./cache-identity.ts";
import { availabilityLoadWindowQuery, availabilityWindowQuery } from "./availability-queries.ts";
import { appointmentTypesQuery, facilitiesQuery, providersQuery } from "./directory-queries.ts";
import { heldSlotsQuery } from "./holds-queries.ts";
import { noteChangesQuery } from "./note-changes-queries.ts";
import { noteDraftQuery, noteImagesQuery, noteQuery, noteTasksQuery } from "./note-queries.ts";
import { contextPatientAppointmentsQuery } from "./patient-appointments-query.ts";
import { contextPatientQuery } from "./patient-query.ts";
import { invalidateEveryRead, queryKeys } from "./query-keys.ts";
import { lastSlotSearchQuery } from "./last-slot-search-queries.ts";
import { recentNotesQuery } from "./recent-notes-query.ts";
import { sessionQuery } from "./session-query.ts";
import { slotsQuery } from "./slots-queries.ts";
import { waitlistQuery } from "./waitlist-queries.ts";

const startsWith = (key: QueryKey, prefix: QueryKey) => prefix.every((part, index) => key[index] === part);

const SEARCH = { appointmentTypeId: "atp_1", facilityIds: ["fac_1"], startDate: "2026-11-23", endDate: "2026-12-06" };
const WINDOW = { facilityId: "fac_1", startDate: "2026-11-23", endDate: "2026-11-29" };

const ALICE_AT_A: CacheIdentity = { organizationId: "org_a", userId: "alice" };
const BOB_AT_A: CacheIdentity = { organizationId: "org_a", userId: "bob" };
const ALICE_AT_B: CacheIdentity = { organizationId: "org_b", userId: "alice" };

/** Every read of the organization's data the SPA makes, as its factory keys it for the identity signed in now. */
const organizationReads = (): readonly QueryKey[] => [
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
  lastSlotSearchQuery().queryKey,
  contextPatientQuery("pat_1").queryKey,
  contextPatientAppointmentsQuery("pat_1").queryKey,
  waitlistQuery().queryKey,
];

afterEach(() => {
  switchCacheIdentity(new QueryClient(), null);
});

describe("query keys", () => {
  it("puts every read of the organization's data under one root, and the sign-in state outside it", () => {
    for (const key of organizationReads()) expect(startsWith(key, queryKeys.organization.all), JSON.stringify(key)).toBe(true);
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
    expect(startsWith(waitlistQuery().queryKey, queryKeys.waitlist.all)).toBe(true);
    // A note's fields are not a prefix of its draft, tasks or images: invalidating one leaves the others.
    expect(startsWith(noteDraftQuery("note_1").queryKey, noteQuery("note_1").queryKey)).toBe(false);
  });

  it("reads everything again on invalidateEveryRead", async () => {
    const client = new QueryClient();
    for (const key of [...organizationReads(), signInStateQuery().queryKey]) client.setQueryData(key, {});
    await invalidateEveryRead(client);
    expect(client.getQueryCache().getAll().filter((query) => !query.state.isInvalidated)).toEqual([]);
  });

  it("scopes every read by the organization and the user signed in, from the factories callers already use", () => {
    const client = new QueryClient();
    for (const identity of [ALICE_AT_A, BOB_AT_A, ALICE_AT_B]) {
      switchCacheIdentity(client, identity);
      for (const key of organizationReads()) expect(key.slice(0, 3), JSON.stringify(key)).toEqual(["organization", identity.organizationId, identity.userId]);
    }
    switchCacheIdentity(client, ALICE_AT_A);
    const alicesAtA = organizationReads().map((key) => JSON.stringify(key));
    switchCacheIdentity(client, BOB_AT_A);
    expect(organizationReads().filter((key) => alicesAtA.includes(JSON.stringify(key)))).toEqual([]);
  });

  it("removes the previous identity's reads when another organization or user signs in, and keeps the sign-in state", () => {
    const client = new QueryClient();
    switchCacheIdentity(client, ALICE_AT_A);
    for (const key of [...organizationReads(), signInStateQuery().queryKey]) client.setQueryData(key, { of: "alice at A" });
    for (const next of [BOB_AT_A, ALICE_AT_B]) {
      switchCacheIdentity(client, next);
      const left = client.getQueryCache().getAll();
      expect(left.map((query) => query.queryKey)).toEqual([signInStateQuery().queryKey]);
      // Not merely marked stale: a view of the new identity can find nothing of the previous one to draw.
      expect(organizationReads().map((key) => client.getQueryData(key))).toEqual(organizationReads().map(() => undefined));
      for (const key of organizationReads()) client.setQueryData(key, { of: "next" });
    }
  });

  it("keeps the reads when the same organization and user come again (a refreshed token, another patient)", () => {
    const client = new QueryClient();
    switchCacheIdentity(client, ALICE_AT_A);
    for (const key of organizationReads()) client.setQueryData(key, {});
    switchCacheIdentity(client, { ...ALICE_AT_A });
    expect(client.getQueryCache().getAll()).toHaveLength(organizationReads().length);
  });

  it("removes everything of the user on signing out", () => {
    const client = new QueryClient();
    switchCacheIdentity(client, ALICE_AT_A);
    for (const key of organizationReads()) client.setQueryData(key, {});
    switchCacheIdentity(client, null);
    expect(client.getQueryCache().getAll()).toEqual([]);
  });
});
