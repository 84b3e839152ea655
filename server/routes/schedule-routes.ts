import type { Hono } from "hono";
import { slotCheckRequest, slotSearchQuery, slotSelection, type SlotCheckRequest, type SlotCheckResponse, type SlotSelection } from "../../contract/app-api/slots.ts";
import { parseV3PathId } from "../../contract/ids.ts";
import { addDays, daysBetween } from "../../contract/time/zoned-time.ts";
import { MAX_SLOT_WINDOW_DAYS } from "../../contract/app-api/slots.ts";
import type { ClinicClient } from "../clinic/clinic-client.ts";
import { UpstreamError } from "../clinic/upstream-error.ts";
import type { AppEnv } from "../http/app-env.ts";
import { AppError, badRequest } from "../http/app-error.ts";
import { parseJsonBody, parseQuery } from "../http/validate.ts";
import { pickAlternatives } from "../schedule/slot-alternatives.ts";

// GET /api/slots, POST /api/slots/check, POST /api/holds, DELETE /api/holds/:id
// (DESIGN.md "The BFF's API"; seed 001 "Schedule"). Searches are served from
// the upstream client's staleness cache; the check before a hold is one
// `consistency=strong` read of that slot's provider, facility and local date
// (same type, length and new-patient flag) and bypasses every cache. When
// the slot is gone, alternatives come from that live read and from the search
// the slot was listed by (cached, like any search): the same day's nearest
// across the searched providers, then the following days.

/** How many days after a gone slot's own the alternatives may come from. */
const ALTERNATIVE_DAYS_AFTER = 6;

function checkWindow(startDate: string, endDate: string): void {
  const days = daysBetween(startDate, endDate);
  if (days < 0) throw badRequest("endDate: must not be before startDate");
  if (days >= MAX_SLOT_WINDOW_DAYS) throw badRequest(`endDate: the window may span at most ${MAX_SLOT_WINDOW_DAYS} days`);
}

const sameInstant = (a: string, b: string) => Date.parse(a) === Date.parse(b);
const sameId = (a: string, b: string, prefix: "prv" | "fac") => parseV3PathId(a, prefix) !== null && parseV3PathId(a, prefix) === parseV3PathId(b, prefix);

/** The selection's local date is that of `startsAt` as the service wrote it (with the facility's offset); a day either side covers a client that sent another offset. */
const dayAround = (selection: SlotSelection) => {
  const date = selection.startsAt.slice(0, 10);
  return { startDate: addDays(date, -1), endDate: addDays(date, 1) };
};

async function strongCheck(clinic: ClinicClient, organizationId: string, request: SlotCheckRequest): Promise<SlotCheckResponse> {
  const { searchedFacilityIds, searchedProviderIds, ...selection } = request;
  const kind = { appointmentTypeId: selection.appointmentTypeId, slotLengthMinutes: selection.slotLengthMinutes, isNewPatient: selection.isNewPatient };
  const data = await clinic.request("GET /v2/schedule/slots", {
    organizationId,
    consistency: "strong",
    query: { ...kind, providerIds: [selection.providerId], facilityIds: [selection.facilityId], ...dayAround(selection) },
  });
  const candidates = data.slots.filter((slot) => sameId(slot.providerId, selection.providerId, "prv") && sameId(slot.facilityId, selection.facilityId, "fac"));
  const found = candidates.find((slot) => sameInstant(slot.startsAt, selection.startsAt) && sameInstant(slot.endsAt, selection.endsAt)) ?? null;
  if (found !== null && found.remainingCapacity > 0) return { available: true, slot: found, alternatives: [], meta: data.meta };

  const date = selection.startsAt.slice(0, 10);
  const searched = await clinic.request("GET /v2/schedule/slots", {
    organizationId,
    query: {
      ...kind,
      facilityIds: searchedFacilityIds ?? [selection.facilityId],
      ...(searchedProviderIds ? { providerIds: searchedProviderIds } : {}),
      startDate: date,
      endDate: addDays(date, ALTERNATIVE_DAYS_AFTER),
    },
  });
  return { available: false, slot: found, alternatives: pickAlternatives(selection, [candidates, searched.slots]), meta: data.meta };
}

export function registerScheduleRoutes(api: Hono<AppEnv>, clinic: ClinicClient): void {
  api.get("/slots", async (c) => {
    const query = parseQuery(c, slotSearchQuery);
    checkWindow(query.startDate, query.endDate);
    const data = await clinic.request("GET /v2/schedule/slots", { organizationId: c.get("session").organizationId, query });
    return c.json(data);
  });

  api.post("/slots/check", async (c) => {
    const request = await parseJsonBody(c, slotCheckRequest);
    const result = await strongCheck(clinic, c.get("session").organizationId, request);
    return c.json(result);
  });

  api.post("/holds", async (c) => {
    const selection = await parseJsonBody(c, slotSelection);
    try {
      const { hold } = await clinic.request("POST /v4/schedule/holds", { organizationId: c.get("session").organizationId, body: selection });
      return c.json({ hold });
    } catch (error) {
      if (error instanceof UpstreamError && error.code === "conflict") {
        throw new AppError(409, "conflict", "That time was just taken: no capacity is left for this slot", error.upstreamTraceId ? { upstream_trace_id: error.upstreamTraceId } : {});
      }
      throw error;
    }
  });

  api.delete("/holds/:id", async (c) => {
    const id = c.req.param("id");
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw badRequest("id: must be a hold id (a UUID)");
    try {
      return c.json(await clinic.request("DELETE /v4/schedule/holds/{holdId}", { organizationId: c.get("session").organizationId, params: { holdId: id } }));
    } catch (error) {
      // Release is idempotent for the user: a hold the service no longer knows is released.
      if (error instanceof UpstreamError && error.code === "not_found") return c.json({ released: true as const });
      throw error;
    }
  });
}
