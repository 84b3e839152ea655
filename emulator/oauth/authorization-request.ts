import * as z from "zod/mini";
import { OAUTH_PROMPTS, pkceChallenge, type OAuthPrompt } from "#contract/clinic-api/oauth.ts";
import type { OAuthClient } from "./oauth-client.ts";

// Checks a `GET /oauth/authorize` query (RFC 6749 4.1.1 and 4.1.2.1, RFC
// 7636, OIDC Core 3.1.2.1). A bad `client_id` or `redirect_uri` is never
// redirected to: the user gets an error page. Every other problem goes back
// to the (registered) redirect URI with `error` and `state`.

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  state: string;
  codeChallenge: string;
  nonce: string | null;
  prompts: ReadonlySet<OAuthPrompt>;
}

export type AuthorizeCheck =
  | { kind: "ok"; request: AuthorizationRequest }
  /** Shown as an error page (400); nothing is redirected. */
  | { kind: "reject"; message: string }
  | { kind: "redirect"; redirectUri: string; error: string; description: string; state: string | null };

type Query = Record<string, string[]>;

function single(query: Query, name: string): { value: string | undefined; repeated: boolean } {
  const values = query[name] ?? [];
  return { value: values[0], repeated: values.length > 1 };
}

function checkPrompt(text: string | undefined): { prompts: Set<OAuthPrompt> } | { problem: string } {
  const prompts = new Set<OAuthPrompt>();
  for (const word of (text ?? "").split(" ").filter((part) => part !== "")) {
    const prompt = OAUTH_PROMPTS.find((known) => known === word);
    if (!prompt) return { problem: `prompt: unknown value "${word}"; use ${OAUTH_PROMPTS.join(", ")}` };
    prompts.add(prompt);
  }
  if (prompts.has("none") && prompts.size > 1) return { problem: "prompt: none cannot be combined with other values" };
  return { prompts };
}

export function checkAuthorizeQuery(query: Query, client: OAuthClient): AuthorizeCheck {
  const clientId = single(query, "client_id");
  if (clientId.value === undefined || clientId.value === "") return { kind: "reject", message: "client_id is required." };
  if (clientId.repeated) return { kind: "reject", message: "client_id must be given once." };
  if (clientId.value !== client.clientId) return { kind: "reject", message: `client_id "${clientId.value}" is not a registered app.` };

  const redirect = single(query, "redirect_uri");
  if (redirect.value === undefined || redirect.value === "") return { kind: "reject", message: "redirect_uri is required." };
  if (redirect.repeated) return { kind: "reject", message: "redirect_uri must be given once." };
  if (!client.redirectUris.includes(redirect.value)) {
    return {
      kind: "reject",
      message: `redirect_uri "${redirect.value}" is not registered for ${client.name}. Redirect URIs must match exactly in scheme, host, port and path; registered: ${client.redirectUris.join(", ")}.`,
    };
  }
  const redirectUri = redirect.value;

  const state = single(query, "state");
  const echoed = state.value === undefined || state.repeated ? null : state.value;
  const fail = (description: string, error = "invalid_request"): AuthorizeCheck => ({ kind: "redirect", redirectUri, error, description, state: echoed });

  const repeated = Object.entries(query).find(([, values]) => values.length > 1);
  if (repeated) return fail(`${repeated[0]} must be given once`);
  const responseType = single(query, "response_type").value;
  if (responseType !== undefined && responseType !== "code") return fail(`response_type "${responseType}" is not supported; use code`, "unsupported_response_type");
  if (state.value === undefined || state.value === "") return fail("state is required");
  const method = single(query, "code_challenge_method").value;
  if (method !== "S256") return fail(method === undefined ? "code_challenge_method is required: S256 (PKCE)" : `code_challenge_method "${method}" is not supported; use S256`);
  const challenge = single(query, "code_challenge").value;
  if (challenge === undefined || challenge === "") return fail("code_challenge is required (PKCE S256)");
  if (!z.safeParse(pkceChallenge, challenge).success) return fail("code_challenge must be BASE64URL(SHA256(code_verifier)): 43 characters");
  const prompt = checkPrompt(single(query, "prompt").value);
  if ("problem" in prompt) return fail(prompt.problem);
  const nonce = single(query, "nonce").value;

  return {
    kind: "ok",
    request: { clientId: clientId.value, redirectUri, state: state.value, codeChallenge: challenge, nonce: nonce === undefined || nonce === "" ? null : nonce, prompts: prompt.prompts },
  };
}

/** The redirect URI with the given parameters added (a registered URI may carry a query of its own). */
export function redirectTo(redirectUri: string, params: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return url.href;
}
