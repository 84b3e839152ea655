import { randomUUID } from "node:crypto";
import type { Context, Hono } from "hono";
import { APP_ERROR_CODES } from "#contract/app-api/errors.ts";
import {
  ALREADY_HELD_CODE,
  HOLD_LIMIT_CODE,
  PATIENT_CHANGED_CODE,
  holdId as holdIdSchema,
  holdRequest,
  MAX_ACTIVE_HOLDS,
  MAX_SLOT_WINDOW_DAYS,
  maxSlotSearchDays,
  slotCheckRequest,
  slotSearchQuery,
  slotSearchScopeProblem,
  type HeldSlotsResponse,
  type HoldOutcomeUnknownExtras,
  type HoldReleaseResponse,
  type HoldRequest,
  type HoldResponse,
  type MaybeHeldSlot,
  type SlotCheckRequest,
  type SlotCheckResponse,
  type SlotSearchQuery,
  type SlotSelection,
} from "#contract/app-api/slots.ts";
import type { Hold } from "#contract/clinic-api/schedule.ts";
import { idKey, isSameId } from "#contract/ids.ts";
import { addDays, daysBetween } from "#contract/time/zoned-time.ts";
import type { ClinicClient } from "../clinic/clinic-client.ts";
import { holdIdKey } from "../clinic/id-forms.ts";
import { UpstreamError } from "../clinic/upstream-error.ts";
import type { AppEnv } from "../http/app-env.ts";
import { AppError, badRequest } from "../http/app-error.ts";
import { sharedJson } from "../http/shared-json-body.ts";
import { parseJsonBody, parsePathParam, parseQuery } from "../http/validate.ts";
import { heldRequestOf, heldSlotOf, isHoldOfSlot, slotHoldRecord } from "../schedule/held-slots.ts";
import { holdSubjectOf, isSameHoldAsked, maybeHeldOf } from "../schedule/hold-intents.ts";
import { outcomeOfFailedWrite } from "../clinic/write-outcome.ts";
import { outcomeUnknownError } from "../http/outcome-unknown-error.ts";
import { pickAlternatives } from "../schedule/slot-alternatives.ts";
import { createSlotSearchGate } from "../schedule/slot-search-gate.ts";
import type { LiveEventPublisher } from "../events/live-event-bus.ts";
import type { AuditTrail, SlotHoldRepository, StoredWaitlistEntry, WaitlistRepository, WriteIntentRepository, WriteOutcome } from "../store/store.ts";
import { claimOffer } from "../waitlist/offer-hold.ts";
import { requireWaitlistRole } from "../waitlist/require-waitlist-role.ts";
import { accessAudit } from "./access-audit.ts";

// GET /api/slots, POST /api/slots/check, GET /api/holds, POST /api/holds,
// DELETE /api/holds/:id (DESIGN.md "The BFF's API"; seed 001 "Schedule";
// docs/decisions/0012-holds-belong-to-the-user.md). Searches are bounded in
// scope (MAX_SLOT_SEARCH_FACILITY_DAYS), served from the upstream client's
// staleness cache, and otherwise wait at a gate weighed by their scope
// (slot-search-gate.ts) before asking the service; the check before a hold is one
// `consistency=strong` read of that slot's provider, facility and local date
// (same type, length and new-patient flag) and bypasses every cache. When
// the slot is gone, alternatives come from that live read and from the search
// the slot was listed by (cached, like any search): the same day's nearest
// across the searched providers, then the following days. Every hold made
// through Tandem is recorded in the store as the user's: at most
// MAX_ACTIVE_HOLDS active at once, listed only to them, released only by them.

/** How many days after a gone slot's own the alternatives may come from. */
const ALTERNATIVE_DAYS_AFTER = 6;

function checkWindow(startDate: string, endDate: string): void {
  const days = daysBetween(startDate, endDate);
  if (days < 0) throw badRequest("endDate: must not be before startDate");
  if (days >= MAX_SLOT_WINDOW_DAYS) throw badRequest(`endDate: the window may span at most ${MAX_SLOT_WINDOW_DAYS} days`);
}

/**
 * A search within MAX_SLOT_SEARCH_FACILITY_DAYS, else 400 `search_too_large`
 * naming the parameters (issue 34). Without `facilityIds` the service
 * searches every facility of the organization: counted from its list (the
 * pickers' cached read).
 */
async function checkScope(clinic: ClinicClient, organizationId: string, query: SlotSearchQuery): Promise<{ facilityDays: number }> {
  const facilityCount = query.facilityIds
    ? new Set(query.facilityIds.map(idKey)).size
    : (await clinic.listAll("GET /v1/facilities", "facilities", { organizationId })).length;
  const days = daysBetween(query.startDate, query.endDate) + 1;
  const problem = slotSearchScopeProblem(facilityCount, days);
  if (problem !== null) throw new AppError(400, APP_ERROR_CODES.searchTooLarge, query.facilityIds ? problem : `${problem}; without facilityIds the search covers all ${facilityCount} of the organization's facilities`);
  return { facilityDays: facilityCount * days };
}

const sameInstant = (a: string, b: string) => Date.parse(a) === Date.parse(b);

/** The selection's local date is that of `startsAt` as the service wrote it (with the facility's offset); a day either side covers a client that sent another offset. */
const dayAround = (selection: SlotSelection) => {
  const date = selection.startsAt.slice(0, 10);
  return { startDate: addDays(date, -1), endDate: addDays(date, 1) };
};

async function strongCheck(clinic: ClinicClient, organizationId: string, request: SlotCheckRequest): Promise<SlotCheckResponse> {
  const { searchedFacilityIds, searchedProviderIds, ...selection } = request;
  const kind = { appointmentTypeId: selection.appointmentTypeId, slotLengthMinutes: selection.slotLengthMinutes, isNewPatient: selection.isNewPatient };
  const data = (await clinic.read("GET /v2/schedule/slots", {
    organizationId,
    consistency: "strong",
    query: { ...kind, providerIds: [selection.providerId], facilityIds: [selection.facilityId], ...dayAround(selection) },
  })).data();
  const candidates = data.slots.filter((slot) => isSameId(slot.providerId, selection.providerId, "prv") && isSameId(slot.facilityId, selection.facilityId, "fac"));
  const found = candidates.find((slot) => sameInstant(slot.startsAt, selection.startsAt) && sameInstant(slot.endsAt, selection.endsAt)) ?? null;
  if (found !== null && found.remainingCapacity > 0) return { available: true, slot: found, alternatives: [], meta: data.meta };

  const date = selection.startsAt.slice(0, 10);
  const facilityIds = searchedFacilityIds ?? [selection.facilityId];
  // Within the search bound, as the search was: fewer days after when many facilities were searched.
  const daysAfter = Math.max(0, Math.min(ALTERNATIVE_DAYS_AFTER, maxSlotSearchDays(facilityIds.length) - 1));
  const searched = (await clinic.read("GET /v2/schedule/slots", {
    organizationId,
    query: {
      ...kind,
      facilityIds,
      ...(searchedProviderIds ? { providerIds: searchedProviderIds } : {}),
      startDate: date,
      endDate: addDays(date, daysAfter),
    },
  })).data();
  return { available: false, slot: found, alternatives: pickAlternatives(selection, [candidates, searched.slots]), meta: data.meta };
}

export interface ScheduleRouteDeps {
  clinic: ClinicClient;
  holds: SlotHoldRepository;
  /** A hold made from a waitlist offer takes the offer (issue 38). */
  waitlist: Pick<WaitlistRepository, "getOffer" | "get" | "takeOffer" | "releaseOffer">;
  /** Every hold is recorded here before the service is asked (issue 35 item 4). */
  intents: WriteIntentRepository;
  audit: AuditTrail;
  /** Tells every tab of the user, on every process, that their holds changed. */
  live: LiveEventPublisher;
  now: () => number;
}

const released = { released: true as const } satisfies HoldReleaseResponse;

/** "10:42 AM": an instant in the facility's zone (in UTC, named, when the zone is not known), for the BFF's messages. */
function clockTime(epochMs: number, zone: string | null): string {
  const options: Intl.DateTimeFormatOptions = { hour: "numeric", minute: "2-digit" };
  try {
    return new Intl.DateTimeFormat("en-US", { ...options, timeZone: zone ?? "UTC", ...(zone === null ? { timeZoneName: "short" } : {}) }).format(epochMs);
  } catch {
    return new Intl.DateTimeFormat("en-US", { ...options, timeZone: "UTC", timeZoneName: "short" }).format(epochMs);
  }
}

/** The user's own orphan answers the service's 409 for its slot, not "just taken" (issue 35 item 4). */
function mayAlreadyHold(error: UpstreamError, freesAtText: string): AppError {
  return new AppError(409, "conflict", `You may already hold this slot (the EHR did not confirm); it frees itself by ${freesAtText} at the latest`, error.upstreamTraceId ? { upstream_trace_id: error.upstreamTraceId } : {});
}

function alreadyHeld(): AppError {
  return new AppError(409, ALREADY_HELD_CODE, "You already hold this slot: book it in the EHR or release it");
}

/** Another tab of the user's is asking the EHR again for the same hold, whose first answer was lost. */
function holdBeingResent(): AppError {
  return new AppError(409, "conflict", "You may already hold this slot: Tandem is asking the EHR for it again from another of your tabs");
}

function patientChanged(): AppError {
  return new AppError(409, PATIENT_CHANGED_CODE, "The patient open in the EHR changed after you chose this slot, so nothing was held: choose it again to hold it for the patient open now");
}

function holdLimitReached(): AppError {
  return new AppError(409, HOLD_LIMIT_CODE, `You already hold ${MAX_ACTIVE_HOLDS} slots: release one before holding another`);
}

function searchTooLarge(error: UpstreamError): AppError {
  return new AppError(422, APP_ERROR_CODES.searchTooLarge, `This search is too large: choose fewer facilities or fewer days (${error.message})`, error.upstreamTraceId ? { upstream_trace_id: error.upstreamTraceId } : {});
}

function slotTaken(error: UpstreamError): AppError {
  return new AppError(409, "conflict", "That time was just taken: no capacity is left for this slot", error.upstreamTraceId ? { upstream_trace_id: error.upstreamTraceId } : {});
}

export function registerScheduleRoutes(api: Hono<AppEnv>, { clinic, holds, waitlist, intents, audit, live, now }: ScheduleRouteDeps): void {
  const slotSearchGate = createSlotSearchGate();
  const access = accessAudit(audit, now);
  /** Every tab of the user hears that their holds changed, confirmed or not. */
  const holdsChanged = (c: Context<AppEnv>) => {
    const { organizationId, userId } = c.get("session");
    live.publish(organizationId, { type: "holds.changed", userId });
  };
  /** Audited, then every tab of the user hears of it. */
  const holdWritten = async (c: Context<AppEnv>, holdId: string) => {
    await access.changed(c, "write", "slot_hold", holdId);
    holdsChanged(c);
  };
  const releaseAtService = async (organizationId: string, holdId: string): Promise<void> => {
    try {
      await clinic.send("DELETE /v4/schedule/holds/{holdId}", { organizationId, params: { holdId } });
    } catch (error) {
      // A hold the service no longer knows is released.
      if (!(error instanceof UpstreamError && error.code === "not_found")) throw error;
    }
  };
  /** The holds the EHR may have made for the user (their answers were lost), oldest first; narrowed to one slot. */
  const maybeHeldBy = async (organizationId: string, userId: string, at: number, slot?: HoldRequest): Promise<MaybeHeldSlot[]> => {
    const unsettled = await intents.listUnsettled(organizationId, "hold", { userId, ...(slot ? { subjectId: holdSubjectOf(slot) } : {}) });
    return unsettled.flatMap((intent) => maybeHeldOf(intent, at) ?? []);
  };
  /** Best effort: an intent left `pending` reads as unknown once its deadline has passed, which is never less cautious. */
  const settle = (c: Context<AppEnv>, organizationId: string, id: string, outcome: Exclude<WriteOutcome, "pending">, resultId: string | null = null, sentAt?: number) =>
    intents.settle(organizationId, id, { outcome, resultId, at: now(), ...(sentAt !== undefined && { sentAt }) }).catch((error: unknown) => {
      c.get("logger").warn({ err: error, intentId: id, outcome }, "settling a hold's write intent failed; it reads as unknown once its deadline has passed");
    });
  const facilityZone = async (organizationId: string, facilityId: string): Promise<string | null> => {
    try {
      const facilities = await clinic.listAll("GET /v1/facilities", "facilities", { organizationId });
      return facilities.find((facility) => isSameId(facility.id, facilityId, "fac"))?.timezone ?? null;
    } catch {
      return null;
    }
  };
  /**
   * "Alvarez, Maria": the hold's patient as the EHR names them, read while the
   * hold is made and audited as a PHI read, so a hold kept for a patient no
   * longer open names them (issue 36 item 4). Null when there is no patient,
   * Tandem may not read patients, or the read or its audit record fails: the
   * hold never waits on it.
   */
  const patientNameOf = async (c: Context<AppEnv>, patientId: string | null): Promise<string | null> => {
    if (patientId === null || !c.get("grantedScopes").has("read:patients")) return null;
    try {
      const record = (await clinic.read("GET /v1/patients/{id}", { organizationId: c.get("session").organizationId, params: { id: patientId } })).data();
      await access.read(c, "patient", record.id);
      return `${record.lastName}, ${record.firstName}`;
    } catch (error) {
      c.get("logger").warn({ err: error }, "reading the held slot's patient failed; the hold is kept without the name");
      return null;
    }
  };
  const freesAtText = async (organizationId: string, maybeHeld: MaybeHeldSlot) => clockTime(Date.parse(maybeHeld.freesAt), await facilityZone(organizationId, maybeHeld.slot.facilityId));

  api.get("/slots", async (c) => {
    const query = parseQuery(c, slotSearchQuery);
    checkWindow(query.startDate, query.endDate);
    const { organizationId } = c.get("session");
    const { facilityDays } = await checkScope(clinic, organizationId, query);
    const call = { organizationId, query };
    try {
      const answer = await clinic.read("GET /v2/schedule/slots", call, (start) => slotSearchGate.run(facilityDays, start));
      return sharedJson(c, answer);
    } catch (error) {
      // The answer passed UPSTREAM_MAX_BODY_BYTES: the user can ask for less.
      if (error instanceof UpstreamError && error.code === APP_ERROR_CODES.upstreamTooLarge) throw searchTooLarge(error);
      throw error;
    }
  });

  api.post("/slots/check", async (c) => {
    const request = await parseJsonBody(c, slotCheckRequest);
    const { organizationId, userId } = c.get("session");
    const result = await strongCheck(clinic, organizationId, request);
    if (result.available) return c.json(result);
    // Gone, perhaps to the user's own hold made in another tab of theirs.
    const own = await holds.listActive(organizationId, userId, now());
    return c.json(own.some((held) => isHoldOfSlot(held, request)) ? { ...result, heldByYou: true as const } : result);
  });

  // Every role may hold (DESIGN.md "The host bridge" 4; the session's
  // `canHoldSlots`), so neither GET nor POST checks one.
  api.get("/holds", async (c) => {
    const { organizationId, userId } = c.get("session");
    const at = now();
    const purge = holds.purgeExpired(at).catch((error: unknown) => c.get("logger").warn({ err: error }, "purging expired slot holds failed"));
    const [active, maybeHeld] = await Promise.all([holds.listActive(organizationId, userId, at), maybeHeldBy(organizationId, userId, at), purge]);
    // The names kept with the holds are PHI: each patient's shown is a read, on the record before the answer.
    const named = new Set(active.flatMap((held) => (held.patientId !== null && held.patientName !== null ? [held.patientId] : [])));
    for (const patientId of named) await access.read(c, "patient", patientId);
    return c.json({ holds: active.map(heldSlotOf), maybeHeld, asOf: new Date(at).toISOString() } satisfies HeldSlotsResponse);
  });

  api.post("/holds", async (c) => {
    const request = await parseJsonBody(c, holdRequest);
    const { organizationId, userId, patientId } = c.get("session");
    // Chosen for one patient, the token minted for another (the EHR switched patient meanwhile): never held for a patient it was not chosen for.
    if (request.fromWaitlist === undefined && patientId !== null && request.patientId !== undefined && !isSameId(patientId, request.patientId)) throw patientChanged();
    const at = now();
    // A hold the EHR may have made for the user takes a place in the basket until it frees itself.
    const [active, maybeHeld] = await Promise.all([holds.listActive(organizationId, userId, at), maybeHeldBy(organizationId, userId, at)]);
    // Another tab of the user's may hold it already: never a second hold of one slot (issue 36 item 1).
    if (active.some((held) => isHoldOfSlot(held, request))) throw alreadyHeld();
    // The same hold asked again (for the same patient) while the EHR may have made it takes no new place: it is
    // sent again in its own. A waitlist offer's hold is for the entry's patient: always an attempt of its own.
    const resent = request.fromWaitlist === undefined ? (maybeHeld.find((maybe) => isSameHoldAsked(maybe, heldRequestOf(c.get("session"), request))) ?? null) : null;
    if (resent === null && active.length + maybeHeld.length >= MAX_ACTIVE_HOLDS) throw holdLimitReached();
    const { fromWaitlist } = request;
    if (fromWaitlist === undefined) return c.json(await holdSlot(c, request, { maybeHeld, resent }, null));
    // From a waitlist offer (issue 38): for the entry's patient, whoever is open; the offer taken first, given back if the EHR refuses.
    requireWaitlistRole(c);
    const claim = await claimOffer(waitlist, { organizationId, userId }, { ...request, fromWaitlist }, at);
    let answer: HoldResponse;
    try {
      // The entry's patient (and name) goes into the answer: on the record first.
      await access.read(c, "waitlist_entry", claim.entry.id);
      answer = await holdSlot(c, request, { maybeHeld, resent }, claim.entry);
    } catch (error) {
      // Kept from colleagues while the EHR may have held it for the entry's patient: their tabs hear it is taken.
      if (isOutcomeUnknown(error)) live.publish(organizationId, { type: "waitlist.changed" });
      else if (!claim.isRetry) await claim.giveBack().catch((giveBackError: unknown) => c.get("logger").warn({ err: giveBackError }, "giving a waitlist offer back failed; it stays taken"));
      throw error;
    }
    live.publish(organizationId, { type: "waitlist.changed" });
    return c.json(answer);
  });

  /**
   * Holds the slot for the token's patient, or for `forEntry`'s (a waitlist
   * offer), recorded before the EHR is asked; answers the hold, or throws
   * what the user is told. `maybeHeld`: the holds the EHR may have made for
   * the user; `resent`: the one of them this request asks for again.
   */
  async function holdSlot(c: Context<AppEnv>, request: HoldRequest, { maybeHeld, resent }: { maybeHeld: MaybeHeldSlot[]; resent: MaybeHeldSlot | null }, forEntry: StoredWaitlistEntry | null): Promise<HoldResponse> {
    const tokenSession = c.get("session");
    const session = forEntry === null ? tokenSession : { ...tokenSession, patientId: forEntry.patientId };
    const { organizationId, userId } = session;
    const at = now();

    // Recorded before the service is asked: an answer lost from here on leaves the attempt, never nothing. An
    // earlier attempt at this very hold whose answer was lost is sent again under its id, the idempotency key: a
    // service that honours it answers the hold it made then, or makes it now; never a second hold of the slot.
    const heldRequest = heldRequestOf(session, request);
    // What the service is asked, in one form whichever way the request named it: a resend's body is the first's.
    const { patientId: _patientId, ...serviceBody } = heldRequest;
    const intentId = resent?.id ?? randomUUID();
    const attempt = { id: intentId, organizationId, userId, kind: "hold" as const, subjectId: holdSubjectOf(request), request: heldRequest, createdAt: at };
    let earlierResultId: string | null = null;
    if (resent === null) await intents.record(attempt);
    else {
      const resending = await intents.resend(organizationId, intentId, { sentAt: Date.parse(resent.triedAt), at });
      if (resending === null) throw holdBeingResent();
      earlierResultId = resending.resultId;
    }
    /** Places in the basket the holds the EHR may have made take, this attempt's own no longer among them once it is answered. */
    const maybeHeldElsewhere = maybeHeld.length - (resent === null ? 0 : 1);
    // Read beside the hold, not after it: the name costs the hold no time. A waitlisted patient's is the entry's.
    const patientName = forEntry === null ? patientNameOf(c, attempt.request.patientId) : Promise.resolve(forEntry.patientName);
    /** The answer was lost, or not recorded: the attempt is the user's as a hold the EHR may have made. */
    const unknownOutcome = async (error: unknown, mayHave: string, learntResultId: string | null): Promise<AppError> => {
      const resultId = learntResultId ?? earlierResultId;
      await settle(c, organizationId, intentId, "unknown", resultId);
      // Listed as not confirmed from now, in the user's other tabs too.
      holdsChanged(c);
      const maybe = maybeHeldOf({ ...attempt, outcome: "unknown", resultId, settledAt: now() }, now());
      if (maybe === null) return outcomeUnknownError(error, intentId, { mayHave, next: "It frees itself within minutes." });
      const extras: HoldOutcomeUnknownExtras = { outcome: "unknown", maybe_held: maybe };
      const next = `Tandem lists it with your holds as not confirmed, and it frees itself by ${await freesAtText(organizationId, maybe)} at the latest.`;
      return outcomeUnknownError(error, intentId, { mayHave, next }, extras);
    };

    let hold: Hold;
    try {
      ({ hold } = await clinic.send("POST /v4/schedule/holds", { organizationId, body: serviceBody, idempotencyKey: intentId }));
    } catch (error) {
      if (outcomeOfFailedWrite(error) === "unknown") throw await unknownOutcome(error, "The EHR may have held this slot for you.", null);
      // A refused resend made nothing and says nothing of the first send, which may have held the slot: that stays
      // unknown, lasting from when it was sent.
      if (resent === null) await settle(c, organizationId, intentId, "refused");
      else await settle(c, organizationId, intentId, "unknown", earlierResultId, Date.parse(resent.triedAt));
      if (error instanceof UpstreamError && error.code === "conflict") {
        // The slot's capacity may be the user's own earlier attempt, made in the EHR and never confirmed.
        const own = await maybeHeldBy(organizationId, userId, now(), request).catch(() => []);
        const earlier = own[0];
        if (earlier !== undefined) throw mayAlreadyHold(error, await freesAtText(organizationId, earlier));
        throw slotTaken(error);
      }
      throw error;
    }
    const heldAt = now();
    const record = slotHoldRecord({ session, request, hold, heldAt, patientName: await patientName });
    let isRecorded: boolean;
    try {
      // The basket's places taken by holds the EHR may have made are not in `slot_holds`: they lower the limit.
      isRecorded = await holds.insertWithinLimit(record, MAX_ACTIVE_HOLDS - maybeHeldElsewhere, heldAt);
    } catch (error) {
      c.get("logger").error({ err: error }, "recording a slot hold failed after the EHR made it");
      // The EHR holds it: kept as the user's, with its id, so Let it go can release it.
      throw await unknownOutcome(error, "The EHR held this slot for you, but Tandem's server could not record the hold.", record.holdId);
    }
    // Another hold of the user's was recorded in the meantime (two clicks at once, two tabs): this one gives way.
    if (!isRecorded) {
      try {
        await releaseAtService(organizationId, record.holdId);
        await settle(c, organizationId, intentId, "done", record.holdId);
      } catch (error) {
        c.get("logger").warn({ err: error }, "releasing a hold over the user's limit failed; it stays the user's, not confirmed, until it expires");
        await settle(c, organizationId, intentId, "unknown", record.holdId);
        holdsChanged(c);
      }
      throw holdLimitReached();
    }
    await settle(c, organizationId, intentId, "done", record.holdId);
    await holdWritten(c, record.holdId);
    return { hold, held: heldSlotOf(record) };
  }

  // The hold's owner only; Tandem releases only holds it knows of.
  api.delete("/holds/:id", async (c) => {
    const holdId = parsePathParam(c, "id", holdIdSchema, "holdId");
    const { organizationId, userId } = c.get("session");
    const stored = await holds.get(organizationId, holdIdKey(holdId));
    if (stored === null) return c.json(await letGo(c, holdIdKey(holdId)));
    if (stored.userId !== userId) throw notOwner();
    await releaseAtService(organizationId, stored.holdId);
    await holds.delete(organizationId, stored.holdId);
    await holdWritten(c, stored.holdId);
    return c.json(released);
  });

  /**
   * An id that is no recorded hold: a hold the EHR may have made for the user
   * (Tandem's attempt's id) is released in the EHR when Tandem learnt its id,
   * else there is nothing to release and it frees itself by `freesAt`.
   * Anything else (released, expired and purged, never made through Tandem):
   * nothing of the user's is held.
   */
  async function letGo(c: Context<AppEnv>, id: string): Promise<HoldReleaseResponse> {
    const { organizationId, userId } = c.get("session");
    const intent = await intents.get(organizationId, id);
    const maybe = intent === null ? null : maybeHeldOf(intent, now());
    if (intent === null || maybe === null) return released;
    if (intent.userId !== userId) throw notOwner();
    if (intent.resultId === null) return { released: false, freesAt: maybe.freesAt };
    await releaseAtService(organizationId, intent.resultId);
    await intents.settle(organizationId, intent.id, { outcome: "done", resultId: intent.resultId, at: now() });
    await holdWritten(c, intent.resultId);
    return released;
  }
}

/** The EHR may have held the slot (its answer was lost): a waitlist offer stays taken. */
const isOutcomeUnknown = (error: unknown) => error instanceof AppError && error.code === APP_ERROR_CODES.outcomeUnknown;

const notOwner = () => new AppError(403, APP_ERROR_CODES.notOwner, "This slot is held by another user: only the user who held it can release it");
