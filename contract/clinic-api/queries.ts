import * as z from "zod/mini";
import { anyId, localDate, utcTimestamp } from "./primitives.ts";

// Query shapes of the list endpoints (seed 001 "Endpoints"), with the names
// DESIGN.md assumes where the seeds leave them out. Inputs are the raw strings
// of a URL; outputs are typed.

/** A whole number in a query string, within bounds. */
export function queryInt(min: number, max: number) {
  return z.pipe(
    z.pipe(z.string().check(z.regex(/^\d{1,9}$/, "must be a whole number")), z.transform(Number)),
    z.int().check(z.minimum(min, `must be at least ${min}`), z.maximum(max, `must be at most ${max}`)),
  );
}

export const queryBoolean = z.pipe(z.enum(["true", "false"], "must be true or false"), z.transform((value) => value === "true"));

/** Comma-separated values; repeated parameters are joined with commas before parsing. */
export function commaList<T extends z.ZodMiniType<unknown, string>>(item: T) {
  return z.pipe(
    z.pipe(
      z.string(),
      z.transform((value) =>
        value
          .split(",")
          .map((part) => part.trim())
          .filter((part) => part !== ""),
      ),
    ),
    z.array(item).check(z.minLength(1, "must name at least one value")),
  );
}

export const pageQuery = {
  page: z.optional(queryInt(1, 1_000_000)),
  pageSize: z.optional(queryInt(1, 100)),
};

const searchText = z.optional(z.string().check(z.maxLength(200, "must be at most 200 characters")));

export const appointmentsQuery = z.object({
  dateFrom: z.optional(localDate),
  dateTo: z.optional(localDate),
  statuses: z.optional(commaList(z.string().check(z.minLength(1)))),
  facilityId: z.optional(anyId),
  patientId: z.optional(anyId),
  sortBy: z.optional(z.enum(["scheduledStartDate", "lastSyncedAt", "status"])),
  sortOrder: z.optional(z.enum(["asc", "desc"])),
  ...pageQuery,
});
export type AppointmentsQuery = z.infer<typeof appointmentsQuery>;

export const facilitiesQuery = z.object({ search: searchText, isVisible: z.optional(queryBoolean), ...pageQuery });
export const patientsQuery = z.object({ search: searchText, ...pageQuery });
export const providersQuery = z.object({ search: searchText, roleId: z.optional(z.string()), hidden: z.optional(queryBoolean), ...pageQuery });
export const productsQuery = z.object({ search: searchText });

export const billsQuery = z.object({
  dateFrom: z.optional(localDate),
  dateTo: z.optional(localDate),
  facilityId: z.optional(anyId),
  patientId: z.optional(anyId),
  providerId: z.optional(anyId),
  integrationStatus: z.optional(z.string()),
  billingType: z.optional(z.string()),
  ...pageQuery,
});

export const eraServiceLinesQuery = z.object({
  updatedSince: z.optional(utcTimestamp),
  billId: z.optional(anyId),
  claimId: z.optional(anyId),
  dateFrom: z.optional(localDate),
  dateTo: z.optional(localDate),
  matched: z.optional(queryBoolean),
  ...pageQuery,
});

/** Assumed names (DESIGN.md): `facilityId`, `providerId`, `startDate`, `endDate`, inclusive local dates. */
export const availabilityTemplatesQuery = z.object({
  facilityId: z.optional(anyId),
  providerId: z.optional(anyId),
  startDate: localDate,
  endDate: localDate,
});
export type AvailabilityTemplatesQuery = z.infer<typeof availabilityTemplatesQuery>;

/** Only `strong` is named by the seeds; `cached` (the default reading) is assumed. */
export const CONSISTENCY_VALUES = ["strong", "cached"] as const;

/** Assumed names (DESIGN.md) for `GET /v2/schedule/slots`. */
export const slotsQuery = z.object({
  appointmentTypeId: anyId,
  facilityIds: z.optional(commaList(anyId)),
  providerIds: z.optional(commaList(anyId)),
  startDate: localDate,
  endDate: localDate,
  slotLengthMinutes: z.optional(queryInt(5, 480)),
  isNewPatient: z.optional(queryBoolean),
  consistency: z.optional(z.enum(CONSISTENCY_VALUES, "must be strong or cached")),
});
export type SlotsQuery = z.infer<typeof slotsQuery>;

export const inventoryChangeQuery = z.object({ facilityId: anyId });
