import { useMemo } from "react";
import { civilFromDays, parseLocalDate } from "#contract/time/zoned-time.ts";
import { isolateText } from "#src/lib/bidi.ts";
import { allowedTypesText } from "./availability-text.ts";
import type { TemplateInfo } from "./band-details.tsx";
import { describeEnd, describeRecurrenceSafely } from "./describe-recurrence.ts";
import type { AvailabilityTemplate } from "./expand-template.ts";
import type { Band, TemplateEntry } from "./week-model.ts";

// What the availability views say about a band's template: its name, its
// provider, its rule in words, the types it allows and when it ends, worked
// out once per template for the names and the date in view.

interface NameContext {
  providerName: (providerKey: string) => string;
  providerShortName: (providerKey: string) => string;
  typeNames: ReadonlyMap<string, string>;
  today: string;
}

function describeTemplate(
  template: AvailabilityTemplate,
  context: { providerName: string; providerShortName: string; typeNames: ReadonlyMap<string, string>; currentYear: number; today: string; unreadableReason: string | null },
): TemplateInfo {
  const ruleText = describeRecurrenceSafely(template.recurrence, template.timezone, { currentYear: context.currentYear, today: context.today });
  const end = describeEnd(template.recurrence, template.timezone, { currentYear: context.currentYear });
  return {
    name: isolateText(template.name),
    providerName: context.providerName,
    providerShortName: context.providerShortName,
    ruleText,
    unreadableReason: context.unreadableReason,
    typesText: allowedTypesText(template.allowedAppointmentTypeIds, context.typeNames),
    untilText: end ?? "unknown (the rule cannot be read)",
    isActive: template.active,
  };
}

export interface TemplateInfoLookup {
  ofBand: (band: Band) => TemplateInfo;
  ofEntry: (entry: TemplateEntry) => TemplateInfo;
}

export function useTemplateInfo({ providerName, providerShortName, typeNames, today }: NameContext): TemplateInfoLookup {
  const currentYear = civilFromDays(parseLocalDate(today)).year;
  return useMemo(() => {
    const cache = new Map<string, TemplateInfo>();
    const infoOf = (entry: TemplateEntry | null, fallbackProviderKey: string): TemplateInfo => {
      if (!entry) return { name: "Unlisted template", providerName: providerName(fallbackProviderKey), providerShortName: providerShortName(fallbackProviderKey), ruleText: null, unreadableReason: "the service did not list this template", typesText: "not listed", untilText: "not listed", isActive: true };
      let info = cache.get(entry.key);
      if (!info) {
        info = describeTemplate(entry.template, { providerName: providerName(entry.providerKey), providerShortName: providerShortName(entry.providerKey), typeNames, currentYear, today, unreadableReason: entry.unreadableReason });
        cache.set(entry.key, info);
      }
      return info;
    };
    return {
      ofBand: (band: Band) => infoOf(band.entry, band.providerKey),
      ofEntry: (entry: TemplateEntry) => infoOf(entry, entry.providerKey),
    };
  }, [providerName, providerShortName, typeNames, currentYear, today]);
}
