import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_ERROR_CODES } from "#contract/app-api/errors.ts";
import { ORG_A_ID } from "../../emulator/world/identities.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { StoreUnavailableError } from "../store/store-unavailable.ts";
import { dropSchema } from "../store/testing/drop-schema.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";
import { errorOf } from "./testing/fault-matrix-support.ts";

// DESIGN.md "The audit record of a PHI read is durable before the PHI is
// answered" (issue 35 item 5). Every PHI read of the BFF: answered 200, its
// audit row is in the table when the response arrives (read right after, no
// flush, no wait); its audit write failing, it is refused 503
// store_unavailable and carries no PHI. PGlite always; PostgreSQL when
// DATABASE_URL is set.

const databaseUrl = process.env.DATABASE_URL;

interface PhiRead {
  name: string;
  path: (h: BffHarness) => string;
  token: (h: BffHarness) => Promise<string>;
  /** The audit row's resource type and id. */
  audited: (h: BffHarness) => { resourceType: string; resourceId: string };
  /** Text of the PHI the 200 answer carries: a 503 must not. */
  phi: (h: BffHarness) => string;
}

function note(h: BffHarness) {
  const found = h.emulator.emulator.state.org(ORG_A_ID)?.ehr.notes.find((candidate) => candidate.status === "awaiting_sign");
  if (!found) throw new Error("no unsigned note in the seed");
  return found;
}

function patient(h: BffHarness) {
  const found = h.emulator.emulator.state.org(ORG_A_ID)?.ehr.patients[0];
  if (!found) throw new Error("no patient in the seed");
  return found;
}

const noteRead = (name: string, suffix: string, resourceType: string): PhiRead => ({
  name,
  path: (h) => `/api/notes/${note(h).id}${suffix}`,
  token: (h) => h.hostToken({ noteId: note(h).id }),
  audited: (h) => ({ resourceType, resourceId: note(h).id }),
  phi: (h) => note(h).id,
});

const frontDeskToken = (h: BffHarness) => h.hostToken({ userId: h.userWithRole("Front Desk"), patientId: patient(h).id });

const PHI_READS: PhiRead[] = [
  noteRead("the note", "", "note"),
  noteRead("the note's draft", "/draft", "note_draft"),
  noteRead("the note's tasks", "/tasks", "task"),
  noteRead("the note's images", "/images", "note_image"),
  noteRead("the note's changes", "/changes", "note_changes"),
  { name: "the patient banner", path: () => "/api/context/patient", token: frontDeskToken, audited: (h) => ({ resourceType: "patient", resourceId: patient(h).id }), phi: (h) => patient(h).lastName },
  {
    name: "the patient's appointments",
    path: () => "/api/context/patient/appointments",
    token: frontDeskToken,
    audited: (h) => ({ resourceType: "patient_appointments", resourceId: patient(h).id }),
    phi: (h) => patient(h).id,
  },
];

/** The real store, whose audit writes can be made to fail as a store that cannot answer does. */
function withFailingAudit(store: Store): { store: Store; failAudit: (failing: boolean) => void } {
  let failing = false;
  return {
    store: { ...store, audit: { ...store.audit, record: (entry) => (failing ? Promise.reject(new StoreUnavailableError("timeout")) : store.audit.record(entry)) } },
    failAudit: (value) => {
      failing = value;
    },
  };
}

const engines = [{ name: "pglite", databaseUrl: undefined }, ...(databaseUrl ? [{ name: "postgres", databaseUrl }] : [])];

describe.each(engines)("audit before PHI on $name", ({ databaseUrl: url }) => {
  const schema = `audit_phi_${randomBytes(4).toString("hex")}`;
  let store: Store;
  let failAudit: (failing: boolean) => void;
  let h: BffHarness;

  beforeAll(async () => {
    store = await createStore(url ? { databaseUrl: url, schema } : {});
    const wrapped = withFailingAudit(store);
    failAudit = wrapped.failAudit;
    h = await createBffHarness(wrapped.store);
  }, 60_000);

  afterAll(async () => {
    await h.close();
    await store.close();
    if (url) await dropSchema(url, schema);
  });

  it.each(PHI_READS)("$name answered 200 has its audit row in the store by the time the response is received", async (read) => {
    failAudit(false);
    const { resourceType, resourceId } = read.audited(h);
    const audited = async () => (await store.audit.list(ORG_A_ID)).filter((row) => row.action === "read" && row.resourceType === resourceType && row.resourceId === resourceId).length;
    const before = await audited();
    const response = await h.api(read.path(h), { token: await read.token(h) });
    expect(response.status).toBe(200);
    // Read at once: no flush, no wait.
    expect(await audited()).toBe(before + 1);
  });

  it.each(PHI_READS)("$name whose audit write fails is refused 503 store_unavailable, with no PHI in the body", async (read) => {
    failAudit(true);
    try {
      const response = await h.api(read.path(h), { token: await read.token(h) });
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).not.toBeNull();
      const body = await errorOf(response);
      expect(body.code).toBe(APP_ERROR_CODES.storeUnavailable);
      expect(body.text).not.toContain(read.phi(h));
    } finally {
      failAudit(false);
    }
  });
});
