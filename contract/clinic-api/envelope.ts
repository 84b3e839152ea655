import * as z from "zod/mini";

// Seed 000 "Conventions" and seed 001 "Errors", "Common rules".

export const errorBody = z.object({
  code: z.string(),
  message: z.string(),
  trace_id: z.string(),
});
export type ErrorBody = z.infer<typeof errorBody>;

/** Error codes the seeds name; the value space is open, so `errorBody.code` stays a string. */
export const KNOWN_ERROR_CODES = [
  "bad_request",
  "unauthorized",
  "forbidden",
  "not_found",
  "rate_limit_exceeded",
  "internal_error",
  "conflict",
  "unexpected_integration_error",
  "server_unresponsive",
] as const;
export type KnownErrorCode = (typeof KNOWN_ERROR_CODES)[number];

export const pagination = z.object({
  page: z.int().check(z.minimum(1)),
  pageSize: z.int().check(z.minimum(1), z.maximum(100)),
  totalCount: z.int().check(z.nonnegative()),
  totalPages: z.int().check(z.nonnegative()),
});
export type Pagination = z.infer<typeof pagination>;

export function successEnvelope<T extends z.ZodMiniType>(data: T) {
  return z.object({ code: z.literal("success"), data });
}

/** `data.<plural>` plus `data.pagination`. */
export function paginatedData<K extends string, T extends z.ZodMiniType>(plural: K, item: T) {
  return z.object({ [plural]: z.array(item), pagination } as { [P in K]: z.ZodMiniArray<T> } & { pagination: typeof pagination });
}
