// Availability expansion budget (DESIGN.md "Performance budgets"): 1,000
// templates over 6 weeks in at most 50 ms in Node, at least 20x faster than
// naive `between()` in the same run.

import { pathToFileURL } from "node:url";
import { formatInTimeZone, fromZonedTime } from "date-fns-tz";
import * as rruleModule from "rrule";
import type { AvailabilityInstance, AvailabilityTemplate } from "../contract/clinic-api/schedule.ts";
import { expandTemplate, type ExpansionWindow } from "../contract/recurrence/expand-template.ts";
import { addDays, formatLocalDate, parseLocalDate } from "../contract/time/zoned-time.ts";
import { measure, percentile, round } from "./measure.ts";

const TEMPLATE_COUNT = 1000;
const WEEKS = 6;
const WARM_UP_RUNS = 3;
const MEASURED_RUNS = 15;
const NAIVE_MEASURED_RUNS = 3;
const ZONES = ["America/New_York", "America/Chicago", "Australia/Sydney", "Australia/Lord_Howe"];
const WEEKDAY_SETS = ["MO,WE,FR", "TU,TH", "MO,TU,WE,TH,FR", "MO,TH", "SA", "WE", "MO,WE", "TU,TH,SA"];
// Covers New York's and Chicago's spring-forward (03-08) and Sydney's and Lord Howe's fall-back (04-05).
const WINDOW: ExpansionWindow = { startDate: "2026-03-02", endDate: addDays("2026-03-02", WEEKS * 7 - 1) };

type RRuleStr = typeof rruleModule.rrulestr;

function hasRRuleStr(value: unknown): value is { rrulestr: RRuleStr } {
  return typeof value === "object" && value !== null && "rrulestr" in value && typeof value.rrulestr === "function";
}

// Same CommonJS interop as contract/recurrence/expand-template.ts.
function loadRRuleStr(): RRuleStr {
  if (hasRRuleStr(rruleModule)) return rruleModule.rrulestr;
  const commonJsExports: unknown = Reflect.get(rruleModule, "default");
  if (hasRRuleStr(commonJsExports)) return commonJsExports.rrulestr;
  throw new Error("rrule exposes no rrulestr");
}

const rrulestr = loadRRuleStr();

/** mulberry32: a small deterministic PRNG, so every run measures the same templates. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function hex32(random: () => number): string {
  let text = "";
  for (let i = 0; i < 32; i += 1) text += Math.floor(random() * 16).toString(16);
  return text;
}

function pad2(value: number): string {
  return String(value).padStart(2, "0");
}

export function buildBenchTemplates(count = TEMPLATE_COUNT): AvailabilityTemplate[] {
  const random = createRandom(20_260_302);
  const windowStart = parseLocalDate(WINDOW.startDate);
  const templates: AvailabilityTemplate[] = [];
  for (let index = 0; index < count; index += 1) {
    const zone = ZONES[index % ZONES.length] ?? "America/New_York";
    const byDay = WEEKDAY_SETS[Math.floor(random() * WEEKDAY_SETS.length)] ?? "MO";
    const interval = random() < 0.3 ? 2 : 1;
    const anchor = formatLocalDate(windowStart - Math.floor(random() * 5 * 365)).replaceAll("-", "");
    const startHour = 6 + Math.floor(random() * 8);
    const startMinute = random() < 0.5 ? 0 : 30;
    const lengthHours = 2 + Math.floor(random() * 7);
    const startTimeLocal = `${pad2(startHour)}:${pad2(startMinute)}`;
    const endTimeLocal = `${pad2(startHour + lengthHours)}:${pad2(startMinute)}`;
    const hasUntil = random() < 0.1;
    templates.push({
      id: `avt_${hex32(random)}`,
      externalId: `bench-${index}`,
      providerId: `prv_${hex32(random)}`,
      facilityId: `fac_${hex32(random)}`,
      name: `Bench ${index}`,
      startTimeLocal,
      endTimeLocal,
      timezone: zone,
      slotIntervalMinutes: 15,
      concurrency: 1 + Math.floor(random() * 3),
      recurrence: {
        rrule: `DTSTART;TZID=${zone}:${anchor}T${startTimeLocal.replace(":", "")}00\nRRULE:FREQ=WEEKLY;INTERVAL=${interval};BYDAY=${byDay}`,
        until: hasUntil ? addDays(WINDOW.startDate, 10 + Math.floor(random() * 30)) : null,
      },
      allowedAppointmentTypeIds: null,
      active: true,
    });
  }
  return templates;
}

/**
 * The naive way: `rrule`'s `between()` from the original DTSTART (in
 * floating time, as DESIGN.md requires even of a naive version), then
 * date-fns-tz for local times.
 */
export function expandTemplateNaively(template: AvailabilityTemplate, window: ExpansionWindow): AvailabilityInstance[] {
  const rule = rrulestr(template.recurrence.rrule.replace(/^DTSTART;TZID=[^:]+:/m, "DTSTART:"));
  const until = template.recurrence.until ?? window.endDate;
  const last = until < window.endDate ? until : window.endDate;
  const occurrences = rule.between(new Date(`${window.startDate}T00:00:00Z`), new Date(`${last}T23:59:59Z`), true);
  const crossesMidnight = template.endTimeLocal <= template.startTimeLocal;
  return occurrences.map((occurrence) => {
    const date = occurrence.toISOString().slice(0, 10);
    const endDate = crossesMidnight ? addDays(date, 1) : date;
    const startsAt = fromZonedTime(`${date}T${template.startTimeLocal}:00`, template.timezone);
    const endsAt = fromZonedTime(`${endDate}T${template.endTimeLocal}:00`, template.timezone);
    return {
      templateId: template.id,
      providerId: template.providerId,
      facilityId: template.facilityId,
      startsAt: formatInTimeZone(startsAt, template.timezone, "yyyy-MM-dd'T'HH:mm:ssxxx"),
      endsAt: formatInTimeZone(endsAt, template.timezone, "yyyy-MM-dd'T'HH:mm:ssxxx"),
      concurrency: template.concurrency,
    };
  });
}

export async function runExpansionBench(): Promise<Record<string, unknown>> {
  const templates = buildBenchTemplates();
  let instances = 0;
  const expandAll = (expand: (template: AvailabilityTemplate, window: ExpansionWindow) => AvailabilityInstance[]) => () => {
    instances = 0;
    for (const template of templates) instances += expand(template, WINDOW).length;
  };
  const fast = await measure(expandAll(expandTemplate), MEASURED_RUNS, WARM_UP_RUNS);
  const fastInstances = instances;
  const naive = await measure(expandAll(expandTemplateNaively), NAIVE_MEASURED_RUNS, 1);
  if (instances !== fastInstances) throw new Error(`naive expansion found ${instances} instances, ours ${fastInstances}`);
  const medianMs = percentile(fast, 50);
  const naiveMedianMs = percentile(naive, 50);
  return {
    bench: "expansion",
    templates: TEMPLATE_COUNT,
    weeks: WEEKS,
    instances: fastInstances,
    medianMs: round(medianMs),
    naiveMedianMs: round(naiveMedianMs, 1),
    speedup: round(naiveMedianMs / medianMs, 1),
    budgetMs: 50,
    minSpeedup: 20,
  };
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  console.log(JSON.stringify(await runExpansionBench()));
}
