import type { KnownErrorCode } from "#contract/clinic-api/envelope.ts";

/** The HTTP statuses DESIGN.md fixes for codes the seeds leave open. */
export const STATUS_BY_CODE: Record<KnownErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  rate_limit_exceeded: 429,
  internal_error: 500,
  conflict: 409,
  unexpected_integration_error: 502,
  server_unresponsive: 503,
};

/** A failure the service answers with its error envelope `{code, message, trace_id}`. */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  static of(code: KnownErrorCode, message: string, headers?: Record<string, string>): ServiceError {
    return new ServiceError(STATUS_BY_CODE[code], code, message, headers);
  }
}

export const badRequest = (message: string) => ServiceError.of("bad_request", message);
export const notFound = (message: string) => ServiceError.of("not_found", message);
