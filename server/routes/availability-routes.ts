import type { Hono } from "hono";
import { availabilityQuery, MAX_AVAILABILITY_WINDOW_DAYS } from "#contract/app-api/availability.ts";
import { daysBetween } from "#contract/time/zoned-time.ts";
import type { ClinicClient } from "../clinic/clinic-client.ts";
import type { AppEnv } from "../http/app-env.ts";
import { badRequest } from "../http/app-error.ts";
import { sharedJson } from "../http/shared-json-body.ts";
import { parseQuery } from "../http/validate.ts";

// GET /api/availability: templates, instances and meta for a window of the
// facility's local dates, from the staleness cache. The SPA reads a
// facility's whole week and narrows it to a provider itself; it expands the
// templates for any window and compares with these instances.

/** The window rules of the availability routes: inclusive local dates, at most MAX_AVAILABILITY_WINDOW_DAYS. */
export function checkAvailabilityWindow(startDate: string, endDate: string): void {
  const days = daysBetween(startDate, endDate);
  if (days < 0) throw badRequest("endDate: must not be before startDate");
  if (days >= MAX_AVAILABILITY_WINDOW_DAYS) throw badRequest(`endDate: the window may span at most ${MAX_AVAILABILITY_WINDOW_DAYS} days`);
}

export function registerAvailabilityRoutes(api: Hono<AppEnv>, clinic: ClinicClient): void {
  api.get("/availability", async (c) => {
    const query = parseQuery(c, availabilityQuery);
    checkAvailabilityWindow(query.startDate, query.endDate);
    return sharedJson(c, await clinic.read("GET /v3/schedule/availability-templates", { organizationId: c.get("session").organizationId, query }));
  });
}
