import { legendKey, templateHoursText } from "./availability-text.ts";
import type { TemplateInfo } from "./band-details.tsx";
import { bandLook } from "./band-style.ts";
import type { TemplateEntry } from "./week-model.ts";

// The legend of one grid: each template's key letter, colour and pattern
// (the same three on its bands), name, hours, rule in words, and whether it
// is inactive or unreadable, in words.

export function AvailabilityLegend({ templates, infoOf, showsProvider, isInactiveShown, locale }: { templates: TemplateEntry[]; infoOf: (entry: TemplateEntry) => TemplateInfo; showsProvider: boolean; isInactiveShown: boolean; /** The reader's: hours as the grid writes them. */ locale: string }) {
  if (templates.length === 0) return null;
  return (
    <div className="mt-2">
      <ul aria-label="Legend" className="grid grid-cols-1 gap-x-4 gap-y-1.5 text-xs sm:grid-cols-2 xl:grid-cols-3">
        {templates.map((entry, index) => {
          const info = infoOf(entry);
          const isInactive = !entry.template.active;
          const look = bandLook(index, isInactive);
          return (
            <li key={entry.key} data-testid="availability-legend-item" data-template-id={entry.template.id} className={`flex min-w-0 items-start gap-2 ${isInactive ? "text-slate-600" : ""}`}>
              <span aria-hidden="true" style={look.style} className="mt-0.5 grid h-5 w-7 shrink-0 place-items-center rounded border-l-4 border-y border-r text-[11px] font-bold">
                {legendKey(index)}
              </span>
              <span className="min-w-0">
                <span className="sr-only">Key {legendKey(index)}, {look.patternName}: </span>
                <span className="font-medium text-slate-900">
                  {showsProvider ? `${info.providerName}: ` : ""}
                  {info.name}
                </span>{" "}
                <span data-testid="availability-legend-hours" className="tabular-nums">
                  {templateHoursText(entry.template.startTimeLocal, entry.template.endTimeLocal, locale)}
                </span>
                {", "}
                {info.ruleText ?? "a rule Tandem cannot read"}
                {isInactive ? <span className="ml-1 rounded border border-slate-400 px-1 font-medium text-slate-700">inactive{isInactiveShown ? "" : ", hidden"}</span> : null}
                {entry.unreadableReason ? <span className="ml-1 rounded border border-amber-600 bg-amber-50 px-1 font-medium text-amber-950">rule unreadable: drawn from the service's schedule</span> : null}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
