import * as z from "zod/mini";
import { appointmentType as appointmentTypeSchema, holdCreateBody, type AppointmentType, type AvailabilityMeta, type SlotMeta } from "#contract/clinic-api/schedule.ts";
import { availabilityTemplatesQuery, pageQuery, slotsQuery } from "#contract/clinic-api/queries.ts";
import { expandTemplate } from "#contract/recurrence/expand-template.ts";
import { isRawUuid, parseV3PathId, toPrefixedId, toRawUuid, type IdPrefix } from "#contract/ids.ts";
import { addDays, daysBetween, localDateOf } from "#contract/time/zoned-time.ts";
import { paginate } from "../http/paginate.ts";
import { ServiceError, badRequest, notFound } from "../http/service-error.ts";
import { ok, okWithSerialized, serializedMembers } from "../http/service-middleware.ts";
import { parseJsonBody, parseQuery } from "../http/validate.ts";
import { liveAppointmentsByProvider } from "../service/ehr-appointment-changes.ts";
import { SlotAnswerMemo } from "../service/slot-answer-memo.ts";
import { providersInScope, searchSlots, slotLengthFor, type ScheduleSource, type SlotSearch } from "../service/slot-finder.ts";
import type { HoldRecord, OrgState } from "../service/service-state.ts";
import type { EhrTemplate } from "../world/types.ts";
import type { RouteDeps, ServiceApp } from "./route-deps.ts";

// Seed 001 "Schedule" with DESIGN.md's assumed contracts: appointment types,
// availability templates with instances, slots, hold creation and release.

/** Maximum windows are not shown by the seeds; these bounds are assumed (docs/assumed-contracts.md). */
const MAX_TEMPLATE_WINDOW_DAYS = 366;
const MAX_SLOT_WINDOW_DAYS = 62;
/** The connector mirrors one week back to six weeks ahead (seed 001 events rule 2). */
const MIRROR_HORIZON_DAYS = 42;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * What is made from a mirror template list alone, kept per list: a sync that
 * changes any template replaces the list (mirror-sync.ts), and the entries go
 * with it. At most `MAX_KEPT_PER_TEMPLATE_LIST` per list, then made afresh.
 */
class KeptPerTemplates<V> {
  private readonly byList = new WeakMap<readonly EhrTemplate[], Map<string, V>>();

  get(templates: readonly EhrTemplate[], key: string, make: () => V): V {
    let kept = this.byList.get(templates);
    if (kept === undefined || kept.size >= MAX_KEPT_PER_TEMPLATE_LIST) {
      kept = new Map();
      this.byList.set(templates, kept);
    }
    let value = kept.get(key);
    if (value === undefined) {
      value = make();
      kept.set(key, value);
    }
    return value;
  }
}
const MAX_KEPT_PER_TEMPLATE_LIST = 4096;

/**
 * Load bench only (`settings.benchAnswerMemo`): a window's templates and
 * instances depend on the mirror's templates and nothing else (not on
 * bookings, holds or the clock). When a mirror sync expires every cached
 * answer of the BFF at once, a large organization's schedulers ask for
 * hundreds of these within seconds (the load benchmark).
 */
const availabilityWindows = new KeptPerTemplates<{ json: string }>();

/**
 * A search's providers in scope (slot-finder.ts), by type, facilities and
 * providers searched: every mirror search asks for them, to know which holds
 * bear on its kept answer.
 */
const searchScopes = new KeptPerTemplates<ReadonlySet<string>>();

/** `scopeKey` names the search's type, facilities and providers (what its scope depends on). */
function providersInScopeOf(templates: readonly EhrTemplate[], scopeKey: string, search: SlotSearch): ReadonlySet<string> {
  return searchScopes.get(templates, scopeKey, () => providersInScope(search, templates));
}

function checkWindow(startDate: string, endDate: string, maxDays: number): void {
  const days = daysBetween(startDate, endDate);
  if (days < 0) throw badRequest("endDate: must not be before startDate");
  if (days >= maxDays) throw badRequest(`endDate: the window may span at most ${maxDays} days`);
}

function parseIdField(value: string, prefix: IdPrefix, name: string): string {
  const raw = parseV3PathId(value, prefix);
  if (!raw) throw badRequest(`${name}: must be a valid id (a ${prefix}_ id or a UUID)`);
  return raw;
}

function findAppointmentType(org: OrgState, id: string): AppointmentType {
  const raw = parseIdField(id, "atp", "appointmentTypeId");
  const found = org.ehr.appointmentTypes.find((type) => toRawUuid(type.id) === raw);
  if (!found) throw badRequest(`appointmentTypeId: ${id} is not an appointment type of this organization`);
  return found;
}

function checkKnownIds(kind: "facilityIds" | "providerIds", ids: string[], known: Set<string>): void {
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) throw badRequest(`${kind}: unknown id ${unknown.join(", ")}`);
}

export function registerScheduleRoutes(app: ServiceApp, { state, clock, settings }: RouteDeps): void {
  const slotAnswers = new SlotAnswerMemo();

  const availabilityMeta = (org: OrgState, strong: boolean): AvailabilityMeta => ({
    sourceSyncedAt: iso(strong ? clock.now() : org.mirror.syncedAt),
    sourceKind: org.ehr.kind === "A" ? "ehr_kind_a" : "ehr_kind_b",
    // Whole seconds (seed 000: an integer), rounded up so that a fractional sync interval's bound still holds.
    maxStalenessSeconds: strong ? 0 : Math.ceil(settings.syncIntervalSeconds + settings.stalenessMarginSeconds),
    strongConsistency: strong,
  });

  const scheduleSource = (org: OrgState, strong: boolean, holds: readonly HoldRecord[]): ScheduleSource => ({
    templates: strong ? org.ehr.templates : org.mirror.templates,
    appointmentsByProvider: strong ? liveAppointmentsByProvider(org.ehr) : org.mirror.appointmentsByProvider,
    isReplacedOnChange: !strong,
    holds,
  });

  app.get("/v3/appointment-types", (c) => {
    const query = parseQuery(c, z.object(pageQuery));
    const { items, pagination } = paginate(c.get("org").ehr.appointmentTypes, query.page, query.pageSize);
    return ok(c, { appointmentTypes: items.map((type) => z.parse(appointmentTypeSchema, type)), pagination });
  });

  app.get("/v3/schedule/availability-templates", (c) => {
    const query = parseQuery(c, availabilityTemplatesQuery);
    checkWindow(query.startDate, query.endDate, MAX_TEMPLATE_WINDOW_DAYS);
    const org = c.get("org");
    const facilityId = query.facilityId ? toRawUuid(query.facilityId) : undefined;
    const providerId = query.providerId ? toRawUuid(query.providerId) : undefined;
    const key = `${facilityId ?? ""}|${providerId ?? ""}|${query.startDate}|${query.endDate}`;
    const window = () => {
      // Overlapping templates are separate rows: overlap is additive capacity and is never merged.
      const templates = org.mirror.templates.filter(
        (template) => (!facilityId || toRawUuid(template.facilityId) === facilityId) && (!providerId || toRawUuid(template.providerId) === providerId),
      );
      const instances = templates
        .flatMap((template) => expandTemplate(template, { startDate: query.startDate, endDate: query.endDate }))
        .sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt) || a.templateId.localeCompare(b.templateId));
      return { json: serializedMembers({ templates, instances }) };
    };
    const found = settings.benchAnswerMemo ? availabilityWindows.get(org.mirror.templates, key, window) : window();
    return okWithSerialized(c, found.json, availabilityMeta(org, false));
  });

  app.get("/v2/schedule/slots", async (c) => {
    const query = parseQuery(c, slotsQuery);
    checkWindow(query.startDate, query.endDate, MAX_SLOT_WINDOW_DAYS);
    const org = c.get("org");
    const strong = query.consistency === "strong";
    const appointmentType = findAppointmentType(org, query.appointmentTypeId);
    const facilityIds = (query.facilityIds ?? []).map(toRawUuid);
    const providerIds = (query.providerIds ?? []).map(toRawUuid);
    checkKnownIds("facilityIds", facilityIds, new Set(org.ehr.facilities.map((facility) => facility.id)));
    checkKnownIds("providerIds", providerIds, new Set(org.ehr.providers.map((provider) => provider.id)));
    if (strong && settings.strongReadLatencyMs > 0) await sleep(settings.strongReadLatencyMs);
    const now = clock.now();
    const activeHolds = state.activeHolds(org);
    const source = scheduleSource(org, strong, activeHolds);
    const slotSearch: SlotSearch = { appointmentType, facilityIds, providerIds, startDate: query.startDate, endDate: query.endDate, slotLengthMinutes: query.slotLengthMinutes, isNewPatient: query.isNewPatient };
    const search = () => serializedMembers(searchSlots(slotSearch, source, now));
    const scopeKey = [appointmentType.id, facilityIds.join(","), providerIds.join(",")].join("|");
    const searchKey = [scopeKey, query.startDate, query.endDate, query.slotLengthMinutes ?? "", query.isNewPatient ?? ""].join("|");
    let members: string;
    if (strong || !settings.benchAnswerMemo) members = search();
    else {
      // Only holds of providers the search can list change its answer: another facility's hold keeps it.
      const inScope = providersInScopeOf(source.templates, scopeKey, slotSearch);
      const holdsBearingOnIt = activeHolds.filter((hold) => inScope.has(hold.providerId));
      members = slotAnswers.answer(org.ehr.id, searchKey, { templates: source.templates, appointmentsByProvider: source.appointmentsByProvider, activeHolds: holdsBearingOnIt, now }, search);
    }
    const horizon = addDays(localDateOf(org.mirror.syncedAt, "UTC"), MIRROR_HORIZON_DAYS);
    const meta: SlotMeta = {
      ...availabilityMeta(org, strong),
      strategy: strong ? "ehr_live" : org.ehr.kind === "A" ? "ehr_native" : "synthesized",
      // A cached read past the connector's horizon cannot know the whole window.
      completeness: !strong && query.endDate > horizon ? "partial_beyond_sync_horizon" : "complete",
      generatedAt: iso(now),
    };
    return okWithSerialized(c, members, meta);
  });

  app.post("/v4/schedule/holds", async (c) => {
    const body = await parseJsonBody(c, holdCreateBody);
    const org = c.get("org");
    const appointmentType = findAppointmentType(org, body.appointmentTypeId);
    const providerId = parseIdField(body.providerId, "prv", "providerId");
    const facilityId = parseIdField(body.facilityId, "fac", "facilityId");
    const facility = org.ehr.facilities.find((candidate) => candidate.id === facilityId);
    if (!facility) throw badRequest(`facilityId: unknown id ${body.facilityId}`);
    if (!org.ehr.providers.some((provider) => provider.id === providerId)) throw badRequest(`providerId: unknown id ${body.providerId}`);
    const startsAtMs = Date.parse(body.startsAt);
    const endsAtMs = Date.parse(body.endsAt);
    const lengthMinutes = (endsAtMs - startsAtMs) / 60_000;
    const expected = slotLengthFor({ appointmentType, slotLengthMinutes: body.slotLengthMinutes ?? lengthMinutes, isNewPatient: body.isNewPatient });
    if (lengthMinutes <= 0 || lengthMinutes !== expected) throw badRequest("endsAt: must be after startsAt by the slot length");
    const date = localDateOf(startsAtMs, facility.timezone);
    // A hold is created against the EHR's live schedule, never the mirror.
    const live = searchSlots(
      { appointmentType, facilityIds: [facilityId], providerIds: [providerId], startDate: date, endDate: date, slotLengthMinutes: lengthMinutes, isNewPatient: body.isNewPatient },
      scheduleSource(org, true, state.activeHolds(org)),
      clock.now(),
    );
    const slot = live.slots.find((candidate) => Date.parse(candidate.startsAt) === startsAtMs && Date.parse(candidate.endsAt) === endsAtMs);
    if (!slot) throw ServiceError.of("conflict", "No capacity is left for this slot");
    const now = clock.now();
    const hold = {
      id: state.newId(),
      organizationId: org.ehr.id,
      providerId,
      facilityId,
      startsAt: slot.startsAt,
      endsAt: slot.endsAt,
      startsAtMs,
      endsAtMs,
      appointmentTypeId: appointmentType.id,
      slotLengthMinutes: lengthMinutes,
      isNewPatient: body.isNewPatient ?? false,
      createdAt: iso(now),
      expiresAtMs: now + settings.holdTtlSeconds * 1000,
      releasedAt: null,
    };
    org.holds.set(hold.id, hold);
    return ok(c, {
      hold: {
        id: hold.id,
        status: "active",
        expiresAt: iso(hold.expiresAtMs),
        providerId: toPrefixedId("prv", providerId),
        facilityId: toPrefixedId("fac", facilityId),
        startsAt: hold.startsAt,
        endsAt: hold.endsAt,
        appointmentTypeId: hold.appointmentTypeId,
        slotLengthMinutes: hold.slotLengthMinutes,
        isNewPatient: hold.isNewPatient,
        createdAt: hold.createdAt,
      },
    });
  });

  app.delete("/v4/schedule/holds/:holdId", (c) => {
    const holdId = c.req.param("holdId");
    if (!isRawUuid(holdId)) throw badRequest("holdId must be a valid id");
    const org = c.get("org");
    const hold = org.holds.get(holdId.toLowerCase());
    if (!hold) throw notFound(`Hold ${holdId} not found`);
    // Releasing an expired or already-released hold still succeeds (seed 000, slot hold transitions).
    if (state.holdStatus(hold) === "active") hold.releasedAt = iso(clock.now());
    return ok(c, { released: true as const });
  });
}
