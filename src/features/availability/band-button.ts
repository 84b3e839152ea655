import type { BandLoad } from "#contract/app-api/availability-load.ts";
import { localDateOf } from "#contract/time/zoned-time.ts";
import type { TimeDisplay } from "#src/lib/time-format.ts";
import { bandAccessibleName } from "./availability-text.ts";
import type { TemplateInfo } from "./band-details.tsx";
import { loadText } from "./band-load.tsx";
import type { Band } from "./week-model.ts";
import { wallMinutesFrom } from "./week-window.ts";

// What a band's button says and carries, wherever it is drawn (the week and
// day grids, the facility lanes): its full accessible name with its load,
// and the data attributes tests and benchmarks find it by.

/** The band's accessible name, with "3 of 12 taken" once its load is in. */
export function bandButtonLabel(band: Band, info: TemplateInfo, display: TimeDisplay, bandLoad: BandLoad | null): string {
  const endsNextDay = localDateOf(band.endMs, display.zone) > band.date;
  const wallMinutes = wallMinutesFrom(band.date, band.endMs, display.zone) - wallMinutesFrom(band.date, band.startMs, display.zone);
  const name = bandAccessibleName(
    { providerName: info.providerName, templateName: info.name, date: band.date, startMs: band.startMs, endMs: band.endMs, capacity: band.instance.concurrency, isInactive: band.isInactive, wallMinutes, endsNextDay, isFromService: band.isFromService },
    display,
  );
  return bandLoad ? `${name}, ${loadText(bandLoad)}` : name;
}

export function bandDataAttributes(band: Band, bandLoad: BandLoad | null): Record<`data-${string}`, string | number | undefined> {
  return {
    "data-testid": "availability-band",
    "data-template-id": band.instance.templateId,
    "data-starts-at": band.instance.startsAt,
    "data-ends-at": band.instance.endsAt,
    "data-band-key": band.key,
    "data-inactive": band.isInactive ? "true" : undefined,
    "data-taken": bandLoad?.taken,
    "data-capacity": bandLoad?.capacity,
  };
}
