import { APP_ERROR_CODES, type AppErrorBody } from "#contract/app-api/errors.ts";
import { STORE_RETRY_AFTER_SECONDS } from "../store/store-timeouts.ts";

/** A refusal the BFF answers with its error body (DESIGN.md: `{code, message, trace_id}`). */
export class AppError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 500 | 502 | 503 | 504,
    readonly code: string,
    message: string,
    readonly extras: Omit<AppErrorBody, "code" | "message" | "trace_id"> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new AppError(400, "bad_request", message);
export const forbidden = (code: string, message: string, extras?: AppError["extras"]) => new AppError(403, code, message, extras);

/** 503 `store_unavailable` with `Retry-After`: the BFF's own store could not answer (DESIGN.md "The BFF stays up"). */
export const storeUnavailable = (message = "Tandem's server could not use its database just now: try again in a few seconds") =>
  new AppError(503, APP_ERROR_CODES.storeUnavailable, message, { retry_after_seconds: STORE_RETRY_AFTER_SECONDS }, { "Retry-After": String(STORE_RETRY_AFTER_SECONDS) });
