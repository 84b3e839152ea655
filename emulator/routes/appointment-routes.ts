import * as z from "zod/mini";
import { appointment } from "#contract/clinic-api/appointment.ts";
import { appointmentsQuery } from "#contract/clinic-api/queries.ts";
import { toRawUuid } from "#contract/ids.ts";
import { localDateOf } from "#contract/time/zoned-time.ts";
import { paginate } from "../http/paginate.ts";
import { notFound } from "../http/service-error.ts";
import { ok, requireScope } from "../http/service-middleware.ts";
import { parseQuery } from "../http/validate.ts";
import type { MirroredAppointment } from "../service/mirror-sync.ts";
import type { RouteDeps, ServiceApp } from "./route-deps.ts";
import { parseV1Id } from "./path-ids.ts";

// Seed 001: GET /v1/appointments (filters, sorting, pagination) and
// GET /v1/appointments/{id}, from the mirror. Date filters are the
// facility's local dates.

const SORT_KEYS = {
  scheduledStartDate: (record: MirroredAppointment) => record.scheduledStartDate,
  lastSyncedAt: (record: MirroredAppointment) => record.lastSyncedAt,
  status: (record: MirroredAppointment) => record.status,
} as const;

export function registerAppointmentRoutes(app: ServiceApp, { state }: RouteDeps): void {
  app.get("/v1/appointments", (c) => {
    requireScope(c, state, "read:appointments");
    const query = parseQuery(c, appointmentsQuery);
    const { mirror } = c.get("org");
    const facilityId = query.facilityId ? toRawUuid(query.facilityId) : undefined;
    const patientId = query.patientId ? toRawUuid(query.patientId) : undefined;
    const statuses = query.statuses ? new Set(query.statuses) : undefined;
    const localDate = (record: MirroredAppointment) =>
      localDateOf(Date.parse(record.scheduledStartDate), mirror.facilities.get(record.facilityId)?.timezone ?? "UTC");
    const selected = [...mirror.appointments.values()].filter((record) => {
      if (facilityId && record.facilityId !== facilityId) return false;
      if (patientId && record.patientId !== patientId) return false;
      if (statuses && !statuses.has(record.status)) return false;
      if (query.dateFrom && localDate(record) < query.dateFrom) return false;
      if (query.dateTo && localDate(record) > query.dateTo) return false;
      return true;
    });
    const key = SORT_KEYS[query.sortBy ?? "scheduledStartDate"];
    const direction = query.sortOrder === "desc" ? -1 : 1;
    selected.sort((a, b) => direction * (key(a).localeCompare(key(b)) || a.id.localeCompare(b.id)));
    const { items, pagination } = paginate(selected, query.page, query.pageSize);
    return ok(c, { appointments: items.map((record) => z.parse(appointment, record)), pagination });
  });

  app.get("/v1/appointments/:id", (c) => {
    requireScope(c, state, "read:appointments");
    const id = parseV1Id(c.req.param("id"), "id");
    const record = c.get("org").mirror.appointments.get(id);
    if (!record) throw notFound(`Appointment ${id} not found`);
    return ok(c, z.parse(appointment, record));
  });
}
