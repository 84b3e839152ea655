import * as z from "zod/mini";
import { appErrorBody, type AppErrorBody } from "../../contract/app-api/errors.ts";
import type { AppLink } from "../bridge/app-link.ts";

// Calls to the BFF: the host token in the Authorization header (or, signed in
// outside the EHR, the session cookie alone), responses parsed with
// contract/app-api (STYLE.md 2), a 401 answered by one silent token refresh
// and retry, a fresh token before every write.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: AppErrorBody,
  ) {
    super(body.message);
  }
}

let bridge: AppLink | null = null;

/** What authorises calls: the host bridge once the handshake succeeds, or a standalone sign-in. */
export function setApiBridge(next: AppLink | null): void {
  bridge = next;
}

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

async function send(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal }, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  return fetch(path, { method: init.method ?? "GET", headers, body: init.body === undefined ? undefined : JSON.stringify(init.body), signal: init.signal });
}

async function errorOf(response: Response): Promise<ApiError> {
  let json: unknown = null;
  try {
    json = await response.json();
  } catch {
    // not JSON: described below
  }
  const parsed = z.safeParse(appErrorBody, json);
  return new ApiError(
    response.status,
    parsed.success ? parsed.data : { code: "unexpected_response", message: `Tandem's server answered ${response.status} without an explanation`, trace_id: "" },
  );
}

export async function callBff<T extends z.ZodMiniType>(path: string, schema: T, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<z.infer<T>> {
  if (!bridge) throw new ApiError(401, { code: "invalid_token", message: "No EHR session yet", trace_id: "" });
  const isWrite = WRITE_METHODS.has(init.method ?? "GET");
  let response = await send(path, init, isWrite ? await bridge.writeToken() : await bridge.token());
  if (response.status === 401 && bridge.mode === "embedded") {
    response = await send(path, init, isWrite ? await bridge.writeToken() : await bridge.freshToken());
  }
  if (response.status === 401) bridge.signInEnded();
  if (!response.ok) throw await errorOf(response);
  const json: unknown = await response.json();
  const parsed = z.safeParse(schema, json);
  if (!parsed.success) {
    throw new ApiError(502, { code: "contract_violation", message: "Tandem's server answered in an unexpected shape", trace_id: "" });
  }
  return parsed.data;
}

/** The public configuration (no token): which EHR origins may host the app. */
export const appConfig = z.object({ allowedHostOrigins: z.array(z.string()), slug: z.string() });

export async function fetchAppConfig(): Promise<z.infer<typeof appConfig>> {
  const response = await fetch("/app-config", { headers: { accept: "application/json" } });
  if (!response.ok) throw new Error(`Tandem's configuration could not be loaded (${response.status})`);
  return z.parse(appConfig, await response.json());
}
