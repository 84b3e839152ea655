// Availability expansion budget (DESIGN.md "Performance budgets"): 1,000
// templates over 6 weeks in at most 50 ms in Node, at least 20x faster than
// naive `between()` in the same run, and exact.
//
// Our expansion memoises parsed recurrences by their text (the template's
// zone, `recurrence.until` and `rrule`), while the naive side parses every
// rule on every call. So it is timed twice: warm (the same templates every
// run, parsed once during warm-up) and cold (every run a fresh copy of each
// template whose `rrule` carries an `X-` property naming the run, which the
// parser ignores, so no run finds a parsed recurrence in the cache).
//
// Exact: before timing, the fixture of contract/recurrence/independent-fixture/
// (instances computed by python-dateutil and zoneinfo, none of our code) is
// expanded cold and warm and must match instance by instance; after timing,
// every instance of the cold, warm and naive runs must be equal, not only
// their count (the bench's times of day avoid DST gaps and folds, where
// date-fns-tz differs: DESIGN.md "Two traps, measured").

import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { formatInTimeZone, fromZonedTime } from "date-fns-tz";
import * as rruleModule from "rrule";
import type { AvailabilityInstance, AvailabilityTemplate } from "#contract/clinic-api/schedule.ts";
import { expandTemplate, type ExpansionWindow } from "#contract/recurrence/expand-template.ts";
import { parseIndependentFixture } from "#contract/recurrence/independent-fixture/testing/fixture.ts";
import { addDays, formatLocalDate, parseLocalDate } from "#contract/time/zoned-time.ts";
import { createRandom } from "../emulator/seed/random.ts";
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

// rrule ships CommonJS: its exports are on the module or on its `default`, depending on the loader.
function loadRRuleStr(): RRuleStr {
  if (hasRRuleStr(rruleModule)) return rruleModule.rrulestr;
  const commonJsExports: unknown = Reflect.get(rruleModule, "default");
  if (hasRRuleStr(commonJsExports)) return commonJsExports.rrulestr;
  throw new Error("rrule exposes no rrulestr");
}

const rrulestr = loadRRuleStr();

function hex32(random: () => number): string {
  let text = "";
  for (let i = 0; i < 32; i += 1) text += Math.floor(random() * 16).toString(16);
  return text;
}

function pad2(value: number): string {
  return String(value).padStart(2, "0");
}

export function buildBenchTemplates(count = TEMPLATE_COUNT): AvailabilityTemplate[] {
  // The emulator seed's PRNG (mulberry32), so every run measures the same templates.
  const generator = createRandom(20_260_302);
  const random = () => generator.next();
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

/** A copy of each template whose `rrule` text no earlier run has used: the parse cache misses it. */
function freshCopies(templates: readonly AvailabilityTemplate[], run: number): AvailabilityTemplate[] {
  return templates.map((template) => ({ ...template, recurrence: { ...template.recurrence, rrule: `${template.recurrence.rrule}\nX-TANDEM-BENCH-RUN:${run}` } }));
}

type Expand = (template: AvailabilityTemplate, window: ExpansionWindow) => AvailabilityInstance[];

/** Every instance of the templates, for the exactness checks (outside the timed runs). */
function expandAll(templates: readonly AvailabilityTemplate[], expand: Expand): AvailabilityInstance[] {
  const instances: AvailabilityInstance[] = [];
  for (const template of templates) instances.push(...expand(template, WINDOW));
  return instances;
}

/** What a timed run does: expand every template and count, keeping nothing alive between templates. */
function countAll(templates: readonly AvailabilityTemplate[], expand: Expand): number {
  let count = 0;
  for (const template of templates) count += expand(template, WINDOW).length;
  return count;
}

const line = (instance: AvailabilityInstance) => `${instance.templateId} ${instance.startsAt} → ${instance.endsAt} x${instance.concurrency} ${instance.providerId} ${instance.facilityId}`;

/** Throws at the first instance where `actual` and `expected` differ, naming both. */
function requireSame(what: string, actual: readonly AvailabilityInstance[], expected: readonly AvailabilityInstance[]): void {
  const length = Math.max(actual.length, expected.length);
  for (let index = 0; index < length; index += 1) {
    const ours = actual[index];
    const theirs = expected[index];
    const oursLine = ours === undefined ? "(none)" : line(ours);
    const theirsLine = theirs === undefined ? "(none)" : line(theirs);
    if (oursLine !== theirsLine) throw new Error(`${what}: instance ${index} differs\n  ours:     ${oursLine}\n  expected: ${theirsLine}`);
  }
}

/** Our expansion, cold and warm, against every instance of the independent fixture. */
function checkIndependentFixture(): { templates: number; windows: number; instances: number } {
  const fixture = parseIndependentFixture(readFileSync(new URL("../contract/recurrence/independent-fixture/instances.json", import.meta.url), "utf8"));
  let windows = 0;
  let instances = 0;
  for (const [index, { name, template, windows: fixtureWindows }] of fixture.cases.entries()) {
    // Cold on its first window: a recurrence text no run has parsed.
    const [cold = template] = freshCopies([template], -1 - index);
    for (const window of fixtureWindows) {
      const range = { startDate: window.startDate, endDate: window.endDate };
      requireSame(`independent fixture, "${name}" ${range.startDate}..${range.endDate}, cold`, expandTemplate(cold, range), window.instances);
      requireSame(`independent fixture, "${name}" ${range.startDate}..${range.endDate}, warm`, expandTemplate(template, range), window.instances);
      windows += 1;
      instances += window.instances.length;
    }
  }
  return { templates: fixture.cases.length, windows, instances };
}

export async function runExpansionBench(): Promise<Record<string, unknown>> {
  const exactAgainstIndependentFixture = checkIndependentFixture();
  const templates = buildBenchTemplates();

  let warmCount = 0;
  const warm = await measure(() => {
    warmCount = countAll(templates, expandTemplate);
  }, MEASURED_RUNS, WARM_UP_RUNS);

  // Built before timing: building the copies' strings is not what is measured.
  const coldSets = Array.from({ length: WARM_UP_RUNS + MEASURED_RUNS + 1 }, (_, run) => freshCopies(templates, run));
  let coldRun = 0;
  let coldCount = 0;
  const cold = await measure(() => {
    coldCount = countAll(coldSets[coldRun] ?? [], expandTemplate);
    coldRun += 1;
  }, MEASURED_RUNS, WARM_UP_RUNS);

  let naiveInstances: AvailabilityInstance[] = [];
  const naive = await measure(() => {
    naiveInstances = expandAll(templates, expandTemplateNaively);
  }, NAIVE_MEASURED_RUNS, 1);

  // Untimed: every instance, not only the counts.
  const warmInstances = expandAll(templates, expandTemplate);
  const coldInstances = expandAll(coldSets[coldRun] ?? [], expandTemplate);
  if (warmCount !== warmInstances.length || coldCount !== coldInstances.length) throw new Error(`timed runs counted ${warmCount} (warm) and ${coldCount} (cold) instances, the checked runs ${warmInstances.length} and ${coldInstances.length}`);
  requireSame("bench templates, cold against warm", coldInstances, warmInstances);
  requireSame("bench templates, naive against ours", naiveInstances, warmInstances);

  const warmMedianMs = percentile(warm, 50);
  const coldMedianMs = percentile(cold, 50);
  const naiveMedianMs = percentile(naive, 50);
  return {
    bench: "expansion",
    templates: TEMPLATE_COUNT,
    weeks: WEEKS,
    instances: warmInstances.length,
    warmMedianMs: round(warmMedianMs),
    warmP95Ms: round(percentile(warm, 95)),
    coldMedianMs: round(coldMedianMs),
    coldP95Ms: round(percentile(cold, 95)),
    naiveMedianMs: round(naiveMedianMs, 1),
    warmSpeedup: round(naiveMedianMs / warmMedianMs, 1),
    coldSpeedup: round(naiveMedianMs / coldMedianMs, 1),
    budgetMs: 50,
    minSpeedup: 20,
    exactAgainstNaive: warmInstances.length,
    exactAgainstIndependentFixture,
  };
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  console.log(JSON.stringify(await runExpansionBench()));
}
