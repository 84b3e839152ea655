import { queryOptions } from "@tanstack/react-query";
import * as z from "zod/mini";
import { appErrorBody } from "#contract/app-api/errors.ts";
import { organizationChoiceResponse, signedOutResponse, standaloneSignInState } from "#contract/app-api/standalone.ts";
import { tandemRetryDelayMs } from "#src/api/bff-reachability.ts";
import { queryKeys } from "#src/api/query-keys.ts";

// The standalone sign-in's own calls (not under /api: they work before an
// organization is chosen). The session cookie is HttpOnly: the app never
// sees it, only what GET /auth/session says.

async function readJson<T extends z.ZodMiniType>(response: Response, schema: T): Promise<z.infer<T>> {
  const json: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = z.safeParse(appErrorBody, json);
    throw new Error(error.success ? error.data.message : `Tandem's server answered ${response.status}`);
  }
  return z.parse(schema, json);
}

/** Tandem's server did not answer (restarting, or the network is down), or a proxy in front of it said so. */
export class TandemUnreachableError extends Error {
  override readonly name = "TandemUnreachableError";
}

const PROXY_SAYS_DOWN = new Set([502, 503, 504]);

/** A call to Tandem's server: TandemUnreachableError when it did not answer, or a proxy in front of it said so. */
async function callTandem(path: string, init: { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal } = {}): Promise<Response> {
  const response = await fetch(path, { ...init, headers: { accept: "application/json", ...init.headers } }).catch((error: unknown) => {
    if (init.signal?.aborted) throw error;
    throw new TandemUnreachableError("Tandem's server did not answer");
  });
  if (PROXY_SAYS_DOWN.has(response.status)) throw new TandemUnreachableError(`Tandem's server answered ${response.status}`);
  return response;
}

/**
 * Who is signed in. While Tandem's server does not answer, asked again on
 * Tandem's backoff (1, 2, 4, 8, then every 10 s) for as long as it takes: the
 * sign-in opens by itself once the server is back (a reload during a restart
 * opens the app's kept shell, ADR 0033).
 */
export const signInStateQuery = () =>
  queryOptions({
    queryKey: queryKeys.standalone.signIn(),
    queryFn: async ({ signal }) => readJson(await callTandem("/auth/session", { signal }), standaloneSignInState),
    retry: (_failures, error) => error instanceof TandemUnreachableError,
    retryDelay: (failures) => tandemRetryDelayMs(failures),
    staleTime: 60_000,
  });

export async function chooseOrganization(organizationId: string) {
  const response = await callTandem("/auth/organization", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ organizationId }) });
  return readJson(response, organizationChoiceResponse);
}

/**
 * Ends this browser's sign-in. Fails unless Tandem's server says it has
 * ended: on a shared workstation nobody may be told they are signed out
 * while their session lives on.
 */
export async function signOut(): Promise<void> {
  await readJson(await callTandem("/auth/logout", { method: "POST" }), signedOutResponse);
}

/** Ends every other session of the user (other browsers, devices), then this one. */
export async function signOutEverywhere(): Promise<void> {
  const others = await callTandem("/auth/sessions", { method: "DELETE" });
  if (!others.ok && others.status !== 401) await readJson(others, z.unknown());
  await signOut();
}

/** Where "Sign in" goes: the BFF starts the authorization code flow and brings the browser back here. */
export function signInUrl(returnTo: string, options: { chooseOrganizationsAgain?: boolean } = {}): string {
  const params = new URLSearchParams({ returnTo });
  if (options.chooseOrganizationsAgain) params.set("prompt", "consent");
  return `/auth/login?${params.toString()}`;
}
