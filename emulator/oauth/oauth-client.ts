import { readFileSync } from "node:fs";
import { parse } from "smol-toml";
import * as z from "zod/mini";
import { appManifest } from "#contract/app-manifest.ts";

// The app's OAuth registration as the developer console holds it (seed 001
// "Sign-in for standalone apps" 1-2): the slug is the `client_id`; redirect
// URIs come from the manifest's `[oauth] redirect_uris`, plus the callback of
// the app the sandbox serves (`EMULATOR_APP_URL`), as if added in the console
// (e2e runs the app on a random port).

export interface OAuthClient {
  clientId: string;
  name: string;
  /** Matched exactly: scheme, host, port and path; no wildcards, no normalising. */
  redirectUris: readonly string[];
  requiredScopes: readonly string[];
  optionalScopes: readonly string[];
}

const MANIFEST_URL = new URL("../../svc.app.toml", import.meta.url);

export function appCallbackUri(appUrl: string): string {
  return `${appUrl.replace(/\/+$/, "")}/auth/callback`;
}

export function loadOAuthClient(appUrl: string, manifestUrl: URL = MANIFEST_URL): OAuthClient {
  const manifest = z.parse(appManifest, parse(readFileSync(manifestUrl, "utf8")));
  return {
    clientId: manifest.slug,
    name: manifest.name,
    redirectUris: [...new Set([...manifest.oauth.redirect_uris, appCallbackUri(appUrl)])],
    requiredScopes: manifest.scopes.required,
    optionalScopes: manifest.scopes.optional,
  };
}
