import type { AppErrorBody } from "#contract/app-api/errors.ts";

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
