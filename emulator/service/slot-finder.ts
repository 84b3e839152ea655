import type { AppointmentType, AvailabilityInstance, Slot } from "#contract/clinic-api/schedule.ts";
import { expandTemplate } from "#contract/recurrence/expand-template.ts";
import { addDays, formatInstant, localDateOf } from "#contract/time/zoned-time.ts";
import { toPrefixedId, toRawUuid } from "#contract/ids.ts";
import type { EhrAppointment, EhrTemplate } from "../world/types.ts";

// Bookable slots (seed 000 "Bookable slot", seed 001 "Schedule"): overlapping
// templates add capacity; booked appointments and active holds are already
// subtracted; the new-patient flag changes the type's default length.

export interface SlotSearch {
  appointmentType: AppointmentType;
  /** Raw UUIDs; empty means every facility. */
  facilityIds: string[];
  /** Raw UUIDs; empty means every provider. */
  providerIds: string[];
  startDate: string;
  endDate: string;
  slotLengthMinutes?: number;
  isNewPatient?: boolean;
}

export interface ScheduleSource {
  templates: readonly EhrTemplate[];
  /** The appointments by provider (raw id). */
  appointmentsByProvider: ReadonlyMap<string, readonly EhrAppointment[]>;
  /**
   * The templates and the appointment lists are replaced, never changed in
   * place (the mirror's: mirror-sync.ts), so what is derived from them may be
   * kept; the EHR's change in place (ehr-appointment-changes.ts).
   */
  isReplacedOnChange: boolean;
  holds: Iterable<{ providerId: string; startsAtMs: number; endsAtMs: number }>;
}

export interface SlotSearchResult {
  slots: Slot[];
  nextAvailableByProvider: Record<string, string>;
}

/** Cancelled and no-show bookings hold no capacity. */
const NON_BLOCKING_STATUSES = new Set(["cancelled", "no_show"]);
/** How far past the window `nextAvailableByProvider` looks (assumed; the seeds do not say). */
const NEXT_AVAILABLE_HORIZON_DAYS = 56;
/** The horizon in the stretches it is looked through. */
const LOOK_AHEAD_STRETCHES_DAYS = [7, 21, NEXT_AVAILABLE_HORIZON_DAYS - 28];
const MINUTE = 60_000;

interface Busy {
  startMs: number;
  endMs: number;
}

export function slotLengthFor(search: Pick<SlotSearch, "appointmentType" | "slotLengthMinutes" | "isNewPatient">): number {
  if (search.slotLengthMinutes !== undefined) return search.slotLengthMinutes;
  return search.isNewPatient ? search.appointmentType.newPatientDurationMinutes : search.appointmentType.defaultDurationMinutes;
}

/** A template's provider and facility as raw ids, kept per template: a large group's thousands of templates are read on every search. */
const rawIdsByTemplate = new WeakMap<EhrTemplate, { providerSource: string; facilitySource: string; providerId: string; facilityId: string }>();

function rawIdsOf(template: EhrTemplate): { providerId: string; facilityId: string } {
  const kept = rawIdsByTemplate.get(template);
  if (kept && kept.providerSource === template.providerId && kept.facilitySource === template.facilityId) return kept;
  const ids = { providerSource: template.providerId, facilitySource: template.facilityId, providerId: toRawUuid(template.providerId), facilityId: toRawUuid(template.facilityId) };
  rawIdsByTemplate.set(template, ids);
  return ids;
}

function allowsType(template: EhrTemplate, appointmentTypeId: string): boolean {
  // null: no restriction stated; an empty list allows no type (DESIGN.md).
  return template.allowedAppointmentTypeIds === null || template.allowedAppointmentTypeIds.includes(appointmentTypeId);
}

/** Parsed booking times, kept per record until its timestamps change (the hot path of every search). */
const parsedTimes = new WeakMap<EhrAppointment, { start: string; end: string; busy: Busy }>();

function busyOf(appointment: EhrAppointment): Busy {
  const cached = parsedTimes.get(appointment);
  if (cached && cached.start === appointment.scheduledStartDate && cached.end === appointment.scheduledEndDate) return cached.busy;
  const busy = { startMs: Date.parse(appointment.scheduledStartDate), endMs: Date.parse(appointment.scheduledEndDate) };
  parsedTimes.set(appointment, { start: appointment.scheduledStartDate, end: appointment.scheduledEndDate, busy });
  return busy;
}

/**
 * What takes capacity, for the providers a search can list slots of only (raw
 * ids): a clinic group's facility search touches its own providers'
 * bookings, not the whole group's (the load benchmark's emulator spent a fifth
 * of its time here scanning every booking of a large organization).
 */
function busyByProvider(source: ScheduleSource, providerIds: ReadonlySet<string>): Map<string, readonly Busy[]> {
  const held = new Map<string, Busy[]>();
  for (const hold of source.holds) {
    if (!providerIds.has(hold.providerId)) continue;
    const entry = { startMs: hold.startsAtMs, endMs: hold.endsAtMs };
    const list = held.get(hold.providerId);
    if (list) list.push(entry);
    else held.set(hold.providerId, [entry]);
  }
  const busy = new Map<string, readonly Busy[]>();
  for (const providerId of providerIds) {
    const list = source.appointmentsByProvider.get(providerId) ?? [];
    const booked = source.isReplacedOnChange ? blockingOfList(list) : blockingOf(list);
    const holds = held.get(providerId);
    // Joined into a new list: a kept list of bookings is shared by every search.
    busy.set(providerId, holds ? [...booked, ...holds] : booked);
  }
  return busy;
}

const blockingOf = (list: readonly EhrAppointment[]): Busy[] => list.filter((appointment) => !NON_BLOCKING_STATUSES.has(appointment.status)).map(busyOf);

/**
 * A provider's bookings that take capacity, from an index list (the mirror's
 * appointmentsByProvider), parsed once per list: a sync that changes any
 * booking replaces the records and rebuilds the lists (mirror-sync.ts), so a
 * list is never changed in place. Searches of a large organization read
 * thousands of bookings each, and did it again on every search.
 */
const blockingLists = new WeakMap<readonly EhrAppointment[], readonly Busy[]>();

function blockingOfList(list: readonly EhrAppointment[]): readonly Busy[] {
  let blocking = blockingLists.get(list);
  if (blocking === undefined) {
    blocking = blockingOf(list);
    blockingLists.set(list, blocking);
  }
  return blocking;
}

interface ParsedInstance {
  templateId: string;
  startMs: number;
  endMs: number;
  concurrency: number;
  intervalMinutes: number;
  zone: string;
}

/** A slot and its start instant (ms), for sorting. */
interface TimedSlot {
  startMs: number;
  slot: Slot;
}

/** A free start of one provider at one facility: what a slot is made of. */
interface FreeStart {
  startMs: number;
  zone: string;
  remainingCapacity: number;
  templateIds: string[];
}

/** The free starts of one provider at one facility, from that pair's instances, earliest first. */
function* freeStartsOfGroup(instances: ParsedInstance[], busy: readonly Busy[], lengthMs: number, notBeforeMs: number, window: { startDate: string; endDate: string }): Generator<FreeStart> {
  const starts = new Set<number>();
  for (const instance of instances) {
    const stepMs = instance.intervalMinutes * MINUTE;
    for (let start = instance.startMs; start + lengthMs <= instance.endMs; start += stepMs) starts.add(start);
  }
  // Only bookings that touch this group's instances can take its capacity; sorted, so each
  // candidate counts its overlaps with a binary search instead of a scan (200 providers x 14 days).
  const firstMs = Math.min(...instances.map((instance) => instance.startMs));
  const lastMs = Math.max(...instances.map((instance) => instance.endMs));
  const relevantBusy = busy.filter((entry) => entry.startMs < lastMs && firstMs < entry.endMs).sort((a, b) => a.startMs - b.startMs);
  const longestBusyMs = relevantBusy.reduce((longest, entry) => Math.max(longest, entry.endMs - entry.startMs), 0);
  const overlapsWith = (startMs: number, endMs: number): number => {
    let low = 0;
    let high = relevantBusy.length;
    const earliest = startMs - longestBusyMs;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((relevantBusy[middle]?.startMs ?? 0) <= earliest) low = middle + 1;
      else high = middle;
    }
    let count = 0;
    for (let index = low; index < relevantBusy.length; index += 1) {
      const entry = relevantBusy[index];
      if (!entry || entry.startMs >= endMs) break;
      if (entry.endMs > startMs) count += 1;
    }
    return count;
  };
  for (const startMs of [...starts].sort((a, b) => a - b)) {
    if (startMs < notBeforeMs) continue;
    const endMs = startMs + lengthMs;
    let capacity = 0;
    const templateIds: string[] = [];
    let zone = "UTC";
    for (const instance of instances) {
      if (instance.startMs <= startMs && endMs <= instance.endMs) {
        capacity += instance.concurrency;
        if (!templateIds.includes(instance.templateId)) templateIds.push(instance.templateId);
        zone = instance.zone;
      }
    }
    const localDate = localDateOf(startMs, zone);
    if (localDate < window.startDate || localDate > window.endDate) continue;
    const remainingCapacity = capacity - overlapsWith(startMs, endMs);
    if (remainingCapacity > 0) yield { startMs, zone, remainingCapacity, templateIds };
  }
}

/** The instances of the search's templates over a window, by provider and facility (raw ids). */
function instancesByGroup(search: SlotSearch, source: ScheduleSource, window: { startDate: string; endDate: string }): Map<string, { providerId: string; facilityId: string; instances: ParsedInstance[] }> {
  const facilityFilter = new Set(search.facilityIds);
  const providerFilter = new Set(search.providerIds);
  const groups = new Map<string, { providerId: string; facilityId: string; instances: ParsedInstance[] }>();
  // Instances that start on the day before the window can still hold slots that start inside it.
  const expansionWindow = { startDate: addDays(window.startDate, -1), endDate: window.endDate };
  for (const template of source.templates) {
    if (!template.active || !allowsType(template, search.appointmentType.id)) continue;
    const { providerId, facilityId } = rawIdsOf(template);
    if (providerFilter.size > 0 && !providerFilter.has(providerId)) continue;
    if (facilityFilter.size > 0 && !facilityFilter.has(facilityId)) continue;
    const key = `${providerId}|${facilityId}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = { providerId, facilityId, instances: [] };
      groups.set(key, group);
    }
    for (const instance of source.isReplacedOnChange ? keptInstances(template, expansionWindow) : parsedInstances(template, expansionWindow)) group.instances.push(instance);
  }
  return groups;
}

function findSlots(search: SlotSearch, source: ScheduleSource, now: number, window: { startDate: string; endDate: string }, busy: ReadonlyMap<string, readonly Busy[]>): Slot[] {
  const lengthMs = slotLengthFor(search) * MINUTE;
  const slots: TimedSlot[] = [];
  for (const { providerId, facilityId, instances } of instancesByGroup(search, source, window).values()) {
    const prefixedProviderId = toPrefixedId("prv", providerId);
    const prefixedFacilityId = toPrefixedId("fac", facilityId);
    for (const { startMs, zone, remainingCapacity, templateIds } of freeStartsOfGroup(instances, busy.get(providerId) ?? [], lengthMs, now, window)) {
      const slot = { providerId: prefixedProviderId, facilityId: prefixedFacilityId, startsAt: formatInstant(startMs, zone), endsAt: formatInstant(startMs + lengthMs, zone), remainingCapacity, templateIds };
      slots.push({ startMs, slot });
    }
  }
  // By start, then provider; the start as the number it was made from (parsing it back on every comparison was a tenth of a large search).
  return slots.sort((a, b) => a.startMs - b.startMs || a.slot.providerId.localeCompare(b.slot.providerId)).map((timed) => timed.slot);
}

/**
 * Each provider's first free slot in a window, as its local date (prefixed
 * provider id to date): the first free start of each of its facilities, not
 * every slot. An empty day of a large group looked ahead for 200 providers and
 * made a week of slots for each, only to keep one date.
 */
function firstFreeDates(search: SlotSearch, source: ScheduleSource, now: number, window: { startDate: string; endDate: string }, busy: ReadonlyMap<string, readonly Busy[]>): Map<string, string> {
  const lengthMs = slotLengthFor(search) * MINUTE;
  const earliest = new Map<string, FreeStart>();
  for (const { providerId, instances } of instancesByGroup(search, source, window).values()) {
    const first = freeStartsOfGroup(instances, busy.get(providerId) ?? [], lengthMs, now, window).next();
    if (first.done) continue;
    const found = earliest.get(providerId);
    if (found === undefined || first.value.startMs < found.startMs) earliest.set(providerId, first.value);
  }
  return new Map([...earliest].map(([providerId, start]) => [toPrefixedId("prv", providerId), localDateOf(start.startMs, start.zone)]));
}

const parsedInstances = (template: EhrTemplate, window: { startDate: string; endDate: string }): ParsedInstance[] => expandTemplate(template, window).map((instance) => parseInstance(instance, template));

/**
 * A mirror template's instances over a window, expanded once: the searches of
 * a large organization expand the same templates over the same windows again
 * and again (every front desk's search, the next-available look-ahead), and
 * a mirror template is never changed in place. At most a few windows per
 * template are kept.
 */
const expansions = new WeakMap<EhrTemplate, Map<string, ParsedInstance[]>>();
const MAX_WINDOWS_PER_TEMPLATE = 16;

function keptInstances(template: EhrTemplate, window: { startDate: string; endDate: string }): ParsedInstance[] {
  let byWindow = expansions.get(template);
  if (byWindow === undefined || byWindow.size >= MAX_WINDOWS_PER_TEMPLATE) {
    byWindow = new Map();
    expansions.set(template, byWindow);
  }
  const key = `${window.startDate}|${window.endDate}`;
  let instances = byWindow.get(key);
  if (instances === undefined) {
    instances = parsedInstances(template, window);
    byWindow.set(key, instances);
  }
  return instances;
}

function parseInstance(instance: AvailabilityInstance, template: EhrTemplate): ParsedInstance {
  return {
    templateId: instance.templateId,
    startMs: Date.parse(instance.startsAt),
    endMs: Date.parse(instance.endsAt),
    concurrency: instance.concurrency,
    intervalMinutes: template.slotIntervalMinutes,
    zone: template.timezone,
  };
}

const localDateOfSlot = (slot: Slot) => slot.startsAt.slice(0, 10);

/** The providers (raw ids) with an active template of the type at the searched facilities: the only ones with slots, and the only ones whose bookings and holds change the answer. */
export function providersInScope(search: SlotSearch, templates: readonly EhrTemplate[]): Set<string> {
  const inScope = new Set<string>();
  for (const template of templates) {
    if (!template.active || !allowsType(template, search.appointmentType.id)) continue;
    const { providerId, facilityId } = rawIdsOf(template);
    if (search.providerIds.length > 0 && !search.providerIds.includes(providerId)) continue;
    if (search.facilityIds.length > 0 && !search.facilityIds.includes(facilityId)) continue;
    inScope.add(providerId);
  }
  return inScope;
}

export function searchSlots(search: SlotSearch, source: ScheduleSource, now: number): SlotSearchResult {
  const inScope = providersInScope(search, source.templates);
  const busy = busyByProvider(source, inScope);
  const slots = findSlots(search, source, now, search, busy);

  const nextAvailableByProvider: Record<string, string> = {};
  for (const slot of slots) nextAvailableByProvider[slot.providerId] ??= localDateOfSlot(slot);

  // Providers in scope with nothing in the window: look further ahead, a stretch at a time, earliest first, until each
  // is found or the horizon is reached (the same dates as one look over the horizon; most are found in the first week).
  let missing = [...inScope].filter((providerId) => nextAvailableByProvider[toPrefixedId("prv", providerId)] === undefined);
  let startDate = addDays(search.endDate, 1);
  for (const days of LOOK_AHEAD_STRETCHES_DAYS) {
    if (missing.length === 0) break;
    const ahead = { startDate, endDate: addDays(startDate, days - 1) };
    for (const [providerId, date] of firstFreeDates({ ...search, providerIds: missing }, source, now, ahead, busy)) nextAvailableByProvider[providerId] ??= date;
    missing = missing.filter((providerId) => nextAvailableByProvider[toPrefixedId("prv", providerId)] === undefined);
    startDate = addDays(ahead.endDate, 1);
  }
  return { slots, nextAvailableByProvider };
}
