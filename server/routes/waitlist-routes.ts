import { randomUUID } from "node:crypto";
import type { Context, Hono } from "hono";
import type * as z from "zod/mini";
import {
  MAX_WAITING_ENTRIES,
  MAX_WAITLIST_RANGE_DAYS,
  WAITLIST_FULL_CODE,
  waitlistCreateRequest,
  type waitlistDeleteResponse,
  waitlistUpdateRequest,
  type WaitlistEntryResponse,
  type WaitlistOffer,
  type WaitlistPreferences,
  type WaitlistResponse,
} from "#contract/app-api/waitlist.ts";
import { rawUuid } from "#contract/clinic-api/primitives.ts";
import { idKey } from "#contract/ids.ts";
import { daysBetween, parseLocalDate } from "#contract/time/zoned-time.ts";
import type { ClinicClient } from "../clinic/clinic-client.ts";
import { patientIdInServiceForm } from "../clinic/id-forms.ts";
import type { LiveEventPublisher } from "../events/live-event-bus.ts";
import type { AppEnv } from "../http/app-env.ts";
import { AppError, badRequest } from "../http/app-error.ts";
import { parseJsonBody, parsePathParam } from "../http/validate.ts";
import type { AuditTrail, StoredWaitlistEntry, WaitlistRepository } from "../store/store.ts";
import { findBestMatches, NOT_LOOKED_FOR } from "../waitlist/best-matches.ts";
import { requireWaitlistRole } from "../waitlist/require-waitlist-role.ts";
import { hasRangePassed } from "../waitlist/waitlist-fit.ts";
import { waitlistEntryOf, waitlistOfferOf } from "../waitlist/waitlist-views.ts";
import { accessAudit, type AccessAudit } from "./access-audit.ts";

// GET/POST /api/waitlist, PATCH/DELETE /api/waitlist/:id (issue 38;
// contract/app-api/waitlist.ts; ADR 0030). Front-desk and scheduler roles
// only, reads too: a clinical role without one of them reads none of it. The
// organization and the user come from the verified session; the patient of a
// new entry from the host token's context, never the body, and their name as
// the EHR gives it (as a hold keeps it). Every entry answered or written is on
// the audit trail (`waitlist_entry`) before the answer. GET ends the entries
// whose range has passed, and answers the waiting ones (longest waiting
// first) with their best match from the cached read path
// (server/waitlist/best-matches.ts) and the open offers.

/** Open offers one GET answers (soonest slot first). */
const MAX_OPEN_OFFERS = 50;

export interface WaitlistRouteDeps {
  clinic: ClinicClient;
  waitlist: WaitlistRepository;
  audit: AuditTrail;
  /** `waitlist.changed` to every waitlist user of the organization, on every process. */
  live: LiveEventPublisher;
  now: () => number;
}

function isRealDate(date: string): boolean {
  try {
    parseLocalDate(date);
    return true;
  } catch {
    return false;
  }
}

/** What the contract's shape cannot say: a real range, not passed, within the bound; an ordered time window. 400 naming the field. */
function checkPreferences(preferences: WaitlistPreferences, nowMs: number): void {
  for (const field of ["startDate", "endDate"] as const) {
    if (!isRealDate(preferences[field])) throw badRequest(`preferences.${field}: ${preferences[field]} is not a date`);
  }
  const days = daysBetween(preferences.startDate, preferences.endDate) + 1;
  if (days < 1) throw badRequest("preferences.endDate: must not be before startDate");
  if (days > MAX_WAITLIST_RANGE_DAYS) throw badRequest(`preferences.endDate: the range may span at most ${MAX_WAITLIST_RANGE_DAYS} days (it spans ${days})`);
  if (hasRangePassed(preferences, nowMs)) throw badRequest("preferences.endDate: the range has already passed");
  if (preferences.startsFrom !== null && preferences.startsBefore !== null && preferences.startsBefore <= preferences.startsFrom) {
    throw badRequest("preferences.startsBefore: must be later than startsFrom");
  }
}

const entryIdOf = (c: Context<AppEnv>) => parsePathParam(c, "id", rawUuid, "entryId").toLowerCase();

/** Every entry the answer shows is a PHI read, recorded before the answer (concurrent records share one insert). */
async function auditEntriesRead(access: AccessAudit, c: Context<AppEnv>, entryIds: Iterable<string>): Promise<void> {
  await Promise.all([...new Set(entryIds)].map((id) => access.read(c, "waitlist_entry", id)));
}

export function registerWaitlistRoutes(api: Hono<AppEnv>, { clinic, waitlist, audit, live, now }: WaitlistRouteDeps): void {
  const access = accessAudit(audit, now);
  const changed = (c: Context<AppEnv>) => live.publish(c.get("session").organizationId, { type: "waitlist.changed" });

  /** Facility key → IANA zone, from the pickers' cached list; empty when it cannot be read (then no best match is looked for). */
  const facilityZones = async (organizationId: string): Promise<Map<string, string>> => {
    try {
      const facilities = await clinic.listAll("GET /v1/facilities", "facilities", { organizationId });
      return new Map(facilities.map((facility) => [idKey(facility.id), facility.timezone]));
    } catch {
      return new Map();
    }
  };

  /**
   * "Ruiz, Ana": the open patient as the EHR names them, read and audited as a
   * PHI read; null when Tandem may not read patients or the read fails (the
   * entry never waits on it).
   */
  const patientNameOf = async (c: Context<AppEnv>, patientId: string): Promise<string | null> => {
    if (!c.get("grantedScopes").has("read:patients")) return null;
    try {
      const record = (await clinic.read("GET /v1/patients/{id}", { organizationId: c.get("session").organizationId, params: { id: patientId } })).data();
      await access.read(c, "patient", record.id);
      return `${record.lastName}, ${record.firstName}`;
    } catch (error) {
      c.get("logger").warn({ err: error }, "reading the waitlisted patient's name failed; the entry is kept without it");
      return null;
    }
  };

  api.get("/waitlist", async (c) => {
    requireWaitlistRole(c);
    const { organizationId } = c.get("session");
    const at = now();
    const listed = await waitlist.listWaiting(organizationId, MAX_WAITING_ENTRIES);
    const passed = listed.filter((entry) => hasRangePassed(entry.preferences, at));
    if (passed.length > 0 && (await waitlist.end(organizationId, passed.map((entry) => entry.id), "range_passed", at)).length > 0) changed(c);
    const entries = listed.filter((entry) => !hasRangePassed(entry.preferences, at));
    const waitingIds = new Set(entries.map((entry) => entry.id));

    const offers: WaitlistOffer[] = [];
    for (const stored of await waitlist.listOpenOffers(organizationId, at, MAX_OPEN_OFFERS)) {
      // Only patients still waiting: one who has since been booked or removed is no longer offered anything.
      const offer = waitlistOfferOf(stored);
      const matches = offer?.matches.filter((match) => waitingIds.has(match.entryId)) ?? [];
      if (offer !== null && matches.length > 0) offers.push({ ...offer, matches });
    }
    const best = await findBestMatches(clinic, organizationId, entries, await facilityZones(organizationId), at);
    await auditEntriesRead(access, c, entries.map((entry) => entry.id));
    return c.json({ entries: entries.map((entry) => waitlistEntryOf(entry, best.get(entry.id) ?? NOT_LOOKED_FOR)), offers } satisfies WaitlistResponse);
  });

  api.post("/waitlist", async (c) => {
    requireWaitlistRole(c);
    const { preferences } = await parseJsonBody(c, waitlistCreateRequest);
    const session = c.get("session");
    const at = now();
    checkPreferences(preferences, at);
    if (session.patientId === null) throw badRequest("patient: no patient is open in the EHR: open the patient's chart there, then add them to the waitlist");
    const patientId = patientIdInServiceForm(session.patientId);
    const entry: StoredWaitlistEntry = {
      id: randomUUID(),
      organizationId: session.organizationId,
      patientId,
      patientName: await patientNameOf(c, patientId),
      preferences,
      createdBy: session.userId,
      createdAt: at,
      updatedAt: at,
      endedAt: null,
      endReason: null,
    };
    const outcome = await waitlist.add(entry, MAX_WAITING_ENTRIES);
    if (outcome.kind === "full") {
      throw new AppError(409, WAITLIST_FULL_CODE, `The waitlist already has ${MAX_WAITING_ENTRIES} waiting patients: remove entries that are no longer needed before adding another`);
    }
    if (outcome.kind === "alreadyWaiting") {
      // A retry after a lost answer, a second tab or a double click: the entry already there, not a second one.
      await access.read(c, "waitlist_entry", outcome.entry.id);
      return c.json({ entry: waitlistEntryOf(outcome.entry, NOT_LOOKED_FOR) } satisfies WaitlistEntryResponse);
    }
    await access.changed(c, "write", "waitlist_entry", entry.id);
    changed(c);
    return c.json({ entry: waitlistEntryOf(entry, NOT_LOOKED_FOR) } satisfies WaitlistEntryResponse);
  });

  api.patch("/waitlist/:id", async (c) => {
    requireWaitlistRole(c);
    const id = entryIdOf(c);
    const { preferences } = await parseJsonBody(c, waitlistUpdateRequest);
    const at = now();
    checkPreferences(preferences, at);
    const updated = await waitlist.replacePreferences(c.get("session").organizationId, id, preferences, at);
    if (updated === null) throw new AppError(404, "not_found", "No such waiting entry: it was removed, booked or its range passed");
    await access.changed(c, "write", "waitlist_entry", id);
    changed(c);
    return c.json({ entry: waitlistEntryOf(updated, NOT_LOOKED_FOR) } satisfies WaitlistEntryResponse);
  });

  api.delete("/waitlist/:id", async (c) => {
    requireWaitlistRole(c);
    const id = entryIdOf(c);
    const ended = await waitlist.end(c.get("session").organizationId, [id], "removed", now());
    if (ended.length === 0) throw new AppError(404, "not_found", "No such waiting entry: it was removed, booked or its range passed");
    await access.changed(c, "delete", "waitlist_entry", id);
    changed(c);
    return c.json({ ended: "removed" } satisfies z.infer<typeof waitlistDeleteResponse>);
  });
}
