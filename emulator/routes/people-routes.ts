import * as z from "zod/mini";
import type { Context } from "hono";
import type { ServiceEnv } from "../http/env.ts";
import { facility, patient, patientV3, provider } from "#contract/clinic-api/people.ts";
import { facilitiesQuery, patientsQuery, providersQuery } from "#contract/clinic-api/queries.ts";
import { parseV3PathId, toPrefixedId } from "#contract/ids.ts";
import { paginate } from "../http/paginate.ts";
import { ok, requireScope } from "../http/service-middleware.ts";
import { badRequest, notFound } from "../http/service-error.ts";
import { parseQuery } from "../http/validate.ts";
import type { EhrPatient } from "../world/types.ts";
import type { RouteDeps, ServiceApp } from "./route-deps.ts";
import { parseV1Id } from "./path-ids.ts";

// Seed 001 "Appointments, facilities, patients, providers": facilities,
// patients (v1 and v3) and providers, read from the service's mirror.

const matches = (search: string | undefined, ...values: (string | null | undefined)[]) =>
  search === undefined || values.some((value) => value?.toLowerCase().includes(search.toLowerCase()));

const renderPatientV1 = (record: EhrPatient) => z.parse(patient, record);
const renderPatientV3 = (record: EhrPatient) => z.parse(patientV3, { ...record, id: toPrefixedId("pat", record.id) });

export function registerPeopleRoutes(app: ServiceApp, { state }: RouteDeps): void {
  app.get("/v1/facilities", (c) => {
    requireScope(c, state, "read:facilities");
    const query = parseQuery(c, facilitiesQuery);
    const all = [...c.get("org").mirror.facilities.values()].filter(
      (record) => matches(query.search, record.name) && (query.isVisible === undefined || record.isVisible === query.isVisible),
    );
    const { items, pagination } = paginate(all, query.page, query.pageSize);
    return ok(c, { facilities: items.map((record) => z.parse(facility, record)), pagination });
  });

  app.get("/v1/facilities/:id", (c) => {
    requireScope(c, state, "read:facilities");
    const id = parseV1Id(c.req.param("id"), "id");
    const record = c.get("org").mirror.facilities.get(id);
    if (!record) throw notFound(`Facility ${id} not found`);
    return ok(c, z.parse(facility, record));
  });

  const listPatients = (render: (record: EhrPatient) => unknown) => (c: Context<ServiceEnv>) => {
    requireScope(c, state, "read:patients");
    const query = parseQuery(c, patientsQuery);
    const all = c.get("org").ehr.patients.filter((record) => matches(query.search, `${record.firstName} ${record.lastName}`, `${record.lastName}, ${record.firstName}`, record.mrn));
    const { items, pagination } = paginate(all, query.page, query.pageSize);
    return ok(c, { patients: items.map(render), pagination });
  };
  app.get("/v1/patients", listPatients(renderPatientV1));
  app.get("/v3/patients", listPatients(renderPatientV3));

  app.get("/v1/patients/:id", (c) => {
    requireScope(c, state, "read:patients");
    const id = parseV1Id(c.req.param("id"), "id");
    const record = c.get("org").ehr.patients.find((candidate) => candidate.id === id);
    if (!record) throw notFound(`Patient ${id} not found`);
    return ok(c, renderPatientV1(record));
  });

  app.get("/v3/patients/:id", (c) => {
    requireScope(c, state, "read:patients");
    const id = parseV3PathId(c.req.param("id"), "pat");
    if (!id) throw badRequest("id must be a valid id (a pat_ id or a UUID)");
    const record = c.get("org").ehr.patients.find((candidate) => candidate.id === id);
    if (!record) throw notFound(`Patient ${c.req.param("id")} not found`);
    return ok(c, renderPatientV3(record));
  });

  app.get("/v1/providers", (c) => {
    requireScope(c, state, "read:providers");
    const query = parseQuery(c, providersQuery);
    const all = [...c.get("org").mirror.providers.values()].filter(
      (record) =>
        matches(query.search, `${record.firstName} ${record.lastName}`, record.displayLastName, record.username) &&
        (query.roleId === undefined || record.roles.some((role) => role.toLowerCase() === query.roleId?.toLowerCase())) &&
        (query.hidden === undefined || record.hidden === query.hidden),
    );
    const { items, pagination } = paginate(all, query.page, query.pageSize);
    return ok(c, { providers: items.map((record) => z.parse(provider, record)), pagination });
  });
}
