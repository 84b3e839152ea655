import { addDays, localDateOf } from "#contract/time/zoned-time.ts";
import { cachedIdKey } from "#contract/ids.ts";
import { layoutWeek, type BandInput, type DayLayout } from "./band-layout.ts";
import { compareWithService } from "./compare-instances.ts";
import { expandTemplateCached } from "./expand-window.ts";
import type { AvailabilityInstance, AvailabilityTemplate } from "./expand-template.ts";
import type { WeekWindow } from "./week-window.ts";

// What the week grid shows, from the templates and (once this window's answer
// is in) the service's instances: the client-side expansion where it agrees
// with the service, the service's instances where it does not, inactive
// templates previewed greyed when asked, bands grouped into grids (one per
// provider, or one for the facility), each with its legend order and layout.

export interface TemplateEntry {
  /** Normalised template id (`cachedIdKey`, contract/ids.ts). */
  key: string;
  template: AvailabilityTemplate;
  providerKey: string;
  /** Why the expansion could not read the rule, or null. */
  unreadableReason: string | null;
}

export interface Band {
  /** Unique: template, start and end instants. */
  key: string;
  templateKey: string;
  /** Null when the service lists an instance of a template it did not return. */
  entry: TemplateEntry | null;
  providerKey: string;
  instance: AvailabilityInstance;
  startMs: number;
  endMs: number;
  /** Local start date in the week's zone: the day the band belongs to. */
  date: string;
  /** An inactive template previewed: greyed, adds no capacity. */
  isInactive: boolean;
  /** Drawn from the service's instances, which differ from the expansion for this template. */
  isFromService: boolean;
  /** Started before the week (only its continuation into Monday is drawn). */
  isCarriedIn: boolean;
}

export interface WeekModel {
  templates: TemplateEntry[];
  /** Bands starting in the week, and those carried into its Monday. */
  bands: Band[];
  /** Null until the service's answer for exactly this window is in. */
  comparison: { differingBandCount: number; differingTemplateKeys: ReadonlySet<string> } | null;
}

export interface WeekModelInput {
  templates: readonly AvailabilityTemplate[];
  /** The service's instances for this window; null while they load (the expansion is drawn meanwhile). */
  serviceInstances: readonly AvailabilityInstance[] | null;
  week: WeekWindow;
  /** Only this provider's templates (normalised id), or all. */
  providerKey: string | null;
  showInactive: boolean;
}

function bandOf(instance: AvailabilityInstance, entry: TemplateEntry | null, week: WeekWindow, flags: Pick<Band, "isInactive" | "isFromService" | "isCarriedIn">): Band {
  const startMs = Date.parse(instance.startsAt);
  const endMs = Date.parse(instance.endsAt);
  const templateKey = cachedIdKey(instance.templateId);
  return {
    key: `${templateKey}|${startMs}|${endMs}`,
    templateKey,
    entry,
    providerKey: cachedIdKey(instance.providerId),
    instance,
    startMs,
    endMs,
    date: localDateOf(startMs, week.zone),
    ...flags,
  };
}

export function buildWeekModel({ templates, serviceInstances, week, providerKey, showInactive }: WeekModelInput): WeekModel {
  const window = { startDate: week.startDate, endDate: week.endDate };
  // The day before the week, only for bands running past midnight into Monday.
  const dayBefore = { startDate: addDays(week.startDate, -1), endDate: addDays(week.startDate, -1) };
  const weekStartMs = week.days[0]?.startMs ?? 0;
  const entries: TemplateEntry[] = [];
  const byKey = new Map<string, TemplateEntry>();
  const expanded: AvailabilityInstance[] = [];
  const unreadable = new Set<string>();
  const bands: Band[] = [];
  for (const template of templates) {
    const entryProvider = cachedIdKey(template.providerId);
    if (providerKey !== null && entryProvider !== providerKey) continue;
    const expansion = expandTemplateCached(template, window, { asIfActive: showInactive });
    const entry: TemplateEntry = { key: cachedIdKey(template.id), template, providerKey: entryProvider, unreadableReason: expansion.isReadable ? null : expansion.reason };
    entries.push(entry);
    byKey.set(entry.key, entry);
    if (!expansion.isReadable) {
      unreadable.add(entry.key);
      continue;
    }
    const isInactive = !template.active;
    if (isInactive) {
      // Never compared with the service (an inactive template has no instances there): a preview only.
      for (const instance of expansion.instances) bands.push(bandOf(instance, entry, week, { isInactive, isFromService: false, isCarriedIn: false }));
    } else {
      expanded.push(...expansion.instances);
    }
    if (isInactive && !showInactive) continue;
    const before = expandTemplateCached(template, dayBefore, { asIfActive: showInactive });
    for (const instance of before.instances) {
      if (Date.parse(instance.endsAt) > weekStartMs) bands.push(bandOf(instance, entry, week, { isInactive, isFromService: false, isCarriedIn: true }));
    }
  }
  let shown: readonly AvailabilityInstance[] = expanded;
  let comparison: WeekModel["comparison"] = null;
  if (serviceInstances !== null) {
    const service = providerKey === null ? serviceInstances : serviceInstances.filter((instance) => cachedIdKey(instance.providerId) === providerKey);
    const result = compareWithService(expanded, service, { zone: week.zone, unreadableTemplateIds: unreadable });
    shown = result.instances;
    comparison = { differingBandCount: result.differingBandCount, differingTemplateKeys: result.differingTemplateIds };
  }
  for (const instance of shown) {
    const templateKey = cachedIdKey(instance.templateId);
    bands.push(bandOf(instance, byKey.get(templateKey) ?? null, week, { isInactive: false, isFromService: comparison?.differingTemplateKeys.has(templateKey) ?? false, isCarriedIn: false }));
  }
  // The service may list an instance twice; a band is drawn once.
  const unique = new Map(bands.map((band) => [band.key, band]));
  return { templates: entries, bands: [...unique.values()].sort((a, b) => a.startMs - b.startMs || (a.key < b.key ? -1 : 1)), comparison };
}

export interface GridModel {
  /** The provider's key, or "facility". */
  key: string;
  /** Null in the facility view. */
  providerKey: string | null;
  /** Legend order: the key letter and look of each template come from its index here. */
  templates: TemplateEntry[];
  bands: Band[];
  days: DayLayout[];
}

export interface GroupOptions {
  mode: "provider" | "facility";
  providerName: (providerKey: string) => string;
}

function templateOrder(providerName: (providerKey: string) => string) {
  return (a: TemplateEntry, b: TemplateEntry) =>
    providerName(a.providerKey).localeCompare(providerName(b.providerKey)) ||
    a.template.startTimeLocal.localeCompare(b.template.startTimeLocal) ||
    a.template.name.localeCompare(b.template.name) ||
    (a.key < b.key ? -1 : 1);
}

function gridOf(key: string, providerKey: string | null, templates: TemplateEntry[], bands: Band[], week: WeekWindow): GridModel {
  const inputs: BandInput[] = bands.map((band) => ({ key: band.key, startMs: band.startMs, endMs: band.endMs, capacity: band.instance.concurrency, isInactive: band.isInactive }));
  return { key, providerKey, templates, bands, days: layoutWeek(inputs, week) };
}

/** The grids to draw: one per provider (by name) with templates here, or one for the facility. */
export function groupIntoGrids(model: WeekModel, week: WeekWindow, { mode, providerName }: GroupOptions): GridModel[] {
  const order = templateOrder(providerName);
  if (mode === "facility") return [gridOf("facility", null, [...model.templates].sort(order), model.bands, week)];
  const providers = new Map<string, { templates: TemplateEntry[]; bands: Band[] }>();
  const groupOf = (providerKey: string) => {
    let group = providers.get(providerKey);
    if (!group) {
      group = { templates: [], bands: [] };
      providers.set(providerKey, group);
    }
    return group;
  };
  for (const entry of model.templates) groupOf(entry.providerKey).templates.push(entry);
  for (const band of model.bands) groupOf(band.providerKey).bands.push(band);
  return [...providers.entries()]
    .sort(([a], [b]) => providerName(a).localeCompare(providerName(b)) || (a < b ? -1 : 1))
    .map(([providerKey, group]) => gridOf(providerKey, providerKey, group.templates.sort(order), group.bands, week));
}
