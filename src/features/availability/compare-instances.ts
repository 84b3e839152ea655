import { localDateOf } from "#contract/time/zoned-time.ts";
import type { AvailabilityInstance } from "./expand-template.ts";
import { cachedIdKey } from "#contract/ids.ts";

// The grid draws the client-side expansion of the templates; the service's
// own `instances` for the same window are the check. Where they differ for a
// template (compared by templateId + startsAt + endsAt, as instants), the
// service's instances of that template are shown instead, and the view says
// how many bands differ. A template the client could not read is not counted
// as a difference (the view says why it is drawn from the service).

export interface InstanceComparison {
  /** What to draw: the expansion where it agrees, the service's instances for each template where it does not. */
  instances: AvailabilityInstance[];
  /** Templates (normalised id keys) whose service instances differ from the expansion. */
  differingTemplateIds: ReadonlySet<string>;
  /** Distinct (template, local start date) pairs that differ, unreadable templates left out. */
  differingBandCount: number;
}

function instanceKey(instance: AvailabilityInstance): string {
  return `${cachedIdKey(instance.templateId)}|${Date.parse(instance.startsAt)}|${Date.parse(instance.endsAt)}`;
}

function byTemplate(instances: readonly AvailabilityInstance[]): Map<string, Map<string, AvailabilityInstance>> {
  const grouped = new Map<string, Map<string, AvailabilityInstance>>();
  for (const instance of instances) {
    const template = cachedIdKey(instance.templateId);
    let keyed = grouped.get(template);
    if (!keyed) {
      keyed = new Map();
      grouped.set(template, keyed);
    }
    keyed.set(instanceKey(instance), instance);
  }
  return grouped;
}

export interface CompareOptions {
  /** The zone whose local dates count a band (the facility's). */
  zone: string;
  /** Templates the expansion could not read: their service instances are drawn, but not counted as differences. */
  unreadableTemplateIds?: ReadonlySet<string>;
}

/** Compares the expansion with the service's instances for one window; see {@link InstanceComparison}. */
export function compareWithService(expanded: readonly AvailabilityInstance[], service: readonly AvailabilityInstance[], options: CompareOptions): InstanceComparison {
  const expandedByTemplate = byTemplate(expanded);
  const serviceByTemplate = byTemplate(service);
  const templates = new Set([...expandedByTemplate.keys(), ...serviceByTemplate.keys()]);
  const instances: AvailabilityInstance[] = [];
  const differingTemplateIds = new Set<string>();
  const differingBands = new Set<string>();
  for (const template of templates) {
    const ours = expandedByTemplate.get(template) ?? new Map<string, AvailabilityInstance>();
    const theirs = serviceByTemplate.get(template) ?? new Map<string, AvailabilityInstance>();
    const onlyOurs = [...ours].filter(([key]) => !theirs.has(key)).map(([, instance]) => instance);
    const onlyTheirs = [...theirs].filter(([key]) => !ours.has(key)).map(([, instance]) => instance);
    if (onlyOurs.length === 0 && onlyTheirs.length === 0) {
      instances.push(...ours.values());
      continue;
    }
    differingTemplateIds.add(template);
    instances.push(...theirs.values());
    if (options.unreadableTemplateIds?.has(template)) continue;
    for (const instance of [...onlyOurs, ...onlyTheirs]) differingBands.add(`${template}|${localDateOf(Date.parse(instance.startsAt), options.zone)}`);
  }
  instances.sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt) || (cachedIdKey(a.templateId) < cachedIdKey(b.templateId) ? -1 : cachedIdKey(a.templateId) > cachedIdKey(b.templateId) ? 1 : 0));
  return { instances, differingTemplateIds, differingBandCount: differingBands.size };
}
