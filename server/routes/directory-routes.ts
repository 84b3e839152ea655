import type { Hono } from "hono";
import type { PickerFacility, PickerProvider } from "#contract/app-api/session.ts";
import { pickerQuery } from "#contract/app-api/session.ts";
import type { Facility, Provider } from "#contract/clinic-api/people.ts";
import type { ClinicClient } from "../clinic/clinic-client.ts";
import type { AppEnv } from "../http/app-env.ts";
import { parseQuery } from "../http/validate.ts";

// GET /api/providers, /api/facilities, /api/appointment-types: the pickers.
// Hidden providers and invisible facilities are left out (DESIGN.md).

export const toPickerProvider = (provider: Provider): PickerProvider => ({
  id: provider.id,
  firstName: provider.firstName,
  lastName: provider.lastName,
  displayName: `${provider.displayFirstName} ${provider.displayLastName}`.trim() || `${provider.firstName} ${provider.lastName}`,
  title: provider.title,
  roles: provider.roles,
});

export const toPickerFacility = (facility: Facility): PickerFacility => ({
  id: facility.id,
  name: facility.name,
  timezone: facility.timezone,
  specialty: facility.specialty,
  city: facility.address.city,
});

const matches = (search: string | undefined, ...values: string[]) => !search || values.some((value) => value.toLowerCase().includes(search.toLowerCase()));

export async function listVisibleProviders(clinic: ClinicClient, organizationId: string): Promise<Provider[]> {
  const providers = await clinic.listAll("GET /v1/providers", "providers", { organizationId });
  return providers.filter((provider) => !provider.hidden);
}

export async function listVisibleFacilities(clinic: ClinicClient, organizationId: string): Promise<Facility[]> {
  const facilities = await clinic.listAll("GET /v1/facilities", "facilities", { organizationId });
  return facilities.filter((facility) => facility.isVisible);
}

export function registerDirectoryRoutes(api: Hono<AppEnv>, clinic: ClinicClient): void {
  api.get("/providers", async (c) => {
    const { search } = parseQuery(c, pickerQuery);
    const providers = await listVisibleProviders(clinic, c.get("session").organizationId);
    return c.json({ providers: providers.map(toPickerProvider).filter((provider) => matches(search, provider.displayName, provider.firstName, provider.lastName)) });
  });

  api.get("/facilities", async (c) => {
    const { search } = parseQuery(c, pickerQuery);
    const facilities = await listVisibleFacilities(clinic, c.get("session").organizationId);
    return c.json({ facilities: facilities.map(toPickerFacility).filter((facility) => matches(search, facility.name, facility.city)) });
  });

  api.get("/appointment-types", async (c) => {
    const types = await clinic.listAll("GET /v3/appointment-types", "appointmentTypes", { organizationId: c.get("session").organizationId });
    return c.json({ appointmentTypes: types });
  });
}
