import type { Hono } from "hono";
import { availabilityLoadQuery, LOAD_WINDOW_TOO_BUSY_CODE, MAX_LOAD_APPOINTMENT_PAGES, type AvailabilityLoadQuery, type AvailabilityLoadResponse } from "#contract/app-api/availability-load.ts";
import type { Appointment } from "#contract/clinic-api/appointment.ts";
import type { AvailabilityTemplatesData } from "#contract/clinic-api/schedule.ts";
import { addDays } from "#contract/time/zoned-time.ts";
import { requireGrantedScope } from "../auth/scopes.ts";
import { staleAt } from "../clinic/cache-policy.ts";
import type { ClinicClient } from "../clinic/clinic-client.ts";
import { listBoundedPages, TooManyPages } from "../clinic/paging.ts";
import type { AppEnv } from "../http/app-env.ts";
import { AppError } from "../http/app-error.ts";
import { parseQuery } from "../http/validate.ts";
import { computeBookedLoad } from "../schedule/booked-load.ts";
import { checkAvailabilityWindow } from "./availability-routes.ts";

// GET /api/availability/load (docs/decisions/0020-availability-booked-load.md):
// the booked load of a facility's bands over a window. Two reads, neither
// strong: the availability read (templates and instances, from the
// staleness cache, as GET /api/availability) and the
// facility's appointments around the window (seed 001
// `GET /v1/appointments`), 100 a page, at most
// MAX_LOAD_APPOINTMENT_PAGES pages, kept no longer than the availability
// read's `sourceSyncedAt + maxStalenessSeconds` and dropped by appointment
// webhooks. A week of a facility costs 1 + ⌈appointments / 100⌉ calls the
// first time and none until the cache's bound or the next appointment event.
// Every role may read it, as it may read availability (DESIGN.md "The host
// bridge" 4: front desk and schedulers read schedules); the answer carries
// counts only, no patient.

export interface AvailabilityLoadRouteDeps {
  clinic: ClinicClient;
  /** The BFF's clock, for `meta.computedAt`. */
  now: () => number;
}

/**
 * The local dates of the appointments that can touch the window's bands: the
 * service filters on the local date an appointment starts (as the emulator
 * does; the seeds say only "ISO 8601 dates"). A day either side: a booking
 * running past midnight into the first day's band, and a band crossing
 * midnight from the last day (a band is shorter than a day and a half, so it
 * ends by then). Fixed, not taken from the bands, so that reads narrowed to
 * one provider share the facility's pages.
 */
function appointmentDates(query: AvailabilityLoadQuery): { dateFrom: string; dateTo: string } {
  return { dateFrom: addDays(query.startDate, -1), dateTo: addDays(query.endDate, 1) };
}

async function readAppointments(clinic: ClinicClient, organizationId: string, availability: AvailabilityTemplatesData, query: AvailabilityLoadQuery): Promise<Appointment[]> {
  // No band, nothing to count: the appointments are not read.
  if (availability.instances.length === 0) return [];
  // Kept no longer than the availability read they are combined with: its staleness bound (none for a strong read: nothing kept).
  const cacheUntil = staleAt(availability.meta) ?? undefined;
  try {
    return await listBoundedPages(
      clinic,
      "GET /v1/appointments",
      "appointments",
      {
        organizationId,
        // Statuses are filtered here, not upstream: the filter's values are not shown (seed 001 "Gaps").
        query: { facilityId: query.facilityId, ...appointmentDates(query), sortBy: "scheduledStartDate", sortOrder: "asc" },
        ...(cacheUntil !== undefined && { cacheUntil }),
      },
      { maxPages: MAX_LOAD_APPOINTMENT_PAGES },
    );
  } catch (error) {
    if (!(error instanceof TooManyPages)) throw error;
    throw new AppError(
      400,
      LOAD_WINDOW_TOO_BUSY_CODE,
      `endDate: the window holds ${error.totalCount} appointments at this facility, more than the ${MAX_LOAD_APPOINTMENT_PAGES * 100} one answer counts; choose a shorter window`,
    );
  }
}

export function registerAvailabilityLoadRoutes(api: Hono<AppEnv>, { clinic, now }: AvailabilityLoadRouteDeps): void {
  api.get("/availability/load", async (c) => {
    const query = parseQuery(c, availabilityLoadQuery);
    checkAvailabilityWindow(query.startDate, query.endDate);
    requireGrantedScope(c, "read:appointments");
    const { organizationId } = c.get("session");
    const availability = (await clinic.read("GET /v3/schedule/availability-templates", { organizationId, query })).data();
    const appointments = await readAppointments(clinic, organizationId, availability, query);
    const computedAt = now();
    const load = computeBookedLoad({ templates: availability.templates, instances: availability.instances, appointments, window: query, now: computedAt });
    const body: AvailabilityLoadResponse = { ...load, meta: { ...availability.meta, computedAt: new Date(computedAt).toISOString(), takenFrom: "appointments" } };
    return c.json(body);
  });
}
