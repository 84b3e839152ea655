import { formatTimeRange, type TimeDisplay } from "#src/lib/time-format.ts";
import { concurrencyText, durationText, slotIntervalText } from "./availability-text.ts";
import type { Band } from "./week-model.ts";

// What a band's details say (inside its popover): the template's name, the
// rule in words, slot interval, concurrency, allowed appointment types and
// until; and about this band: its local times, real length, and where it
// comes from.

/** What the view knows about a template beyond the template itself (names resolved, rule in words). */
export interface TemplateInfo {
  name: string;
  providerName: string;
  /** The provider's last name, for bands in the facility view. */
  providerShortName: string;
  /** The rule in words; null when the contract cannot read it. */
  ruleText: string | null;
  unreadableReason: string | null;
  typesText: string;
  /** "31 Dec 2026", "after 10 occurrences", "no end date". */
  untilText: string;
  isActive: boolean;
}

export function BandDetails({ band, info, display, legendKey }: { band: Band; info: TemplateInfo; display: TimeDisplay; legendKey: string }) {
  const realMinutes = (band.endMs - band.startMs) / 60_000;
  return (
    <div className="space-y-2 text-sm">
      <div>
        <p className="font-semibold">
          <span aria-hidden="true" className="mr-1 rounded border border-slate-400 px-1 text-xs">
            {legendKey}
          </span>
          {info.name}
        </p>
        <p className="text-xs text-slate-700">{info.providerName}</p>
      </div>
      {!info.isActive || band.isInactive ? <p className="rounded bg-slate-100 px-2 py-1 text-xs font-medium text-slate-800">Inactive: shown for reference, not bookable.</p> : null}
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-slate-600">This band</dt>
        <dd>
          {formatTimeRange(band.startMs, band.endMs, display)} ({durationText(realMinutes)})
        </dd>
        <dt className="text-slate-600">Repeats</dt>
        <dd data-testid="availability-rule">{info.ruleText ?? `Tandem cannot read this rule${info.unreadableReason ? ` (${info.unreadableReason})` : ""}`}</dd>
        <dt className="text-slate-600">Slots</dt>
        <dd>{band.entry ? slotIntervalText(band.entry.template.slotIntervalMinutes) : "not listed"}</dd>
        <dt className="text-slate-600">Capacity</dt>
        <dd>{concurrencyText(band.instance.concurrency)}</dd>
        <dt className="text-slate-600">Types</dt>
        <dd>{info.typesText}</dd>
        <dt className="text-slate-600">Until</dt>
        <dd>{info.untilText}</dd>
      </dl>
      {band.isFromService ? <p className="text-xs text-slate-700">Drawn from the service's schedule, which differs from this template for this week.</p> : null}
    </div>
  );
}
