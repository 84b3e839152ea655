import { pathToFileURL } from "node:url";
import { EmulatorClock } from "../emulator/clock.ts";
import { createEmulator } from "../emulator/app.ts";
import { DATA_KEYS, ORG_A_ID } from "../emulator/world/identities.ts";
import { measure, percentile, round } from "./measure.ts";

// The emulator's slot search: 12 providers x 14 days at the
// default scale, 200 providers x 14 days at EMULATOR_SCALE=large. Aims:
// under 20 ms and 200 ms median. In-process (`app.request`), no network.

const NOW = Date.parse("2026-11-23T14:00:00.000Z");

async function slotSearchMedian(scale: "default" | "large", providerCount: number, runs: number) {
  const emulator = createEmulator({ clock: new EmulatorClock(NOW, true), scale, settings: { strongReadLatencyMs: 0, rateLimit: 1_000_000 } });
  const org = emulator.state.org(ORG_A_ID);
  if (!org) throw new Error("org A missing");
  const bookable = [...new Set(org.ehr.templates.map((template) => template.providerId))].slice(0, providerCount);
  const type = org.ehr.appointmentTypes[0];
  if (!type) throw new Error("no appointment type");
  const query = new URLSearchParams({
    appointmentTypeId: type.id,
    providerIds: bookable.join(","),
    startDate: "2026-11-23",
    endDate: "2026-12-06",
  });
  const headers = { authorization: `Bearer ${DATA_KEYS[0]?.key ?? ""}`, "x-organization-id": ORG_A_ID };
  let slotCount = 0;
  const durations = await measure(async () => {
    const response = await emulator.app.request(`/v2/schedule/slots?${query.toString()}`, { headers });
    const body = (await response.json()) as { data: { slots: unknown[] } };
    slotCount = body.data.slots.length;
  }, runs);
  emulator.close();
  return { providers: bookable.length, days: 14, slots: slotCount, medianMs: round(percentile(durations, 50)), p95Ms: round(percentile(durations, 95)) };
}

export async function runEmulatorSlotsBench(): Promise<Record<string, unknown>[]> {
  return [
    { bench: "emulator-slot-search", scale: "default", aimMedianMs: 20, ...(await slotSearchMedian("default", 12, 40)) },
    { bench: "emulator-slot-search", scale: "large", aimMedianMs: 200, ...(await slotSearchMedian("large", 200, 10)) },
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await runEmulatorSlotsBench()) console.log(JSON.stringify(line));
}

