import type * as z from "zod/mini";
import { availabilityTemplatesQuery } from "../clinic-api/queries.ts";
import { availabilityTemplatesData } from "../clinic-api/schedule.ts";

// GET /api/availability (DESIGN.md "The BFF's API"): `facilityId`,
// `providerId`, `startDate`, `endDate`; templates, instances and meta as the
// service gives them.

export const MAX_AVAILABILITY_WINDOW_DAYS = 366;

export const availabilityQuery = availabilityTemplatesQuery;
export type AvailabilityQuery = z.infer<typeof availabilityQuery>;

export const availabilityResponse = availabilityTemplatesData;
export type AvailabilityResponse = z.infer<typeof availabilityResponse>;
