import * as oidc from "openid-client";

// Standalone sign-in's OpenID Connect client (DESIGN.md "Standalone mode";
// ADR 0010 "Update"): openid-client 6, configured from the discovery
// document under the pinned issuer. Three things are this service's own:
// - the token endpoint authenticates the app by its data key, sent as
//   `Authorization: Bearer` (seed 001 "Sign-in for standalone apps" 5);
// - id_tokens are ES256 only, their signature checked against the JWKS
//   (openid-client skips that by default for a token fetched over TLS);
// - the BFF's clock may be pinned (tests, a sandbox pinned to an instant)
//   while openid-client reads `Date.now()`: each configuration carries the
//   difference as openid-client's clock skew, so claims meet the BFF's `now`.

export interface OidcClientOptions {
  issuer: string;
  /** The app's slug (seed 001: the slug is the `client_id`). */
  clientId: string;
  /** The app's data key: the token endpoint's client authentication. */
  dataKey: string;
  /** Plain http: only for the sandbox or an issuer on a loopback address (server/env.ts decides). */
  allowInsecureRequests: boolean;
  /** Endpoints the operator pinned in place of the discovered ones. */
  authorizationEndpoint?: string | undefined;
  jwksUri?: string | undefined;
  /** Every request to the service (tests reach the emulator in-process). */
  fetch?: typeof fetch | undefined;
  now: () => number;
}

export interface OidcClient {
  /** Runs `use` with a configuration on the BFF's clock; the first call discovers the endpoints (a failed discovery is tried again next time). */
  run<T>(use: (config: oidc.Configuration) => Promise<T>): Promise<T>;
}

const TIMEOUT_SECONDS = 10;

/** The data key as `Authorization: Bearer`; `client_id` in the body, as a public client would send it. */
function dataKeyAuthentication(dataKey: string): oidc.ClientAuth {
  return (_server, client, body, headers) => {
    body.set("client_id", client.client_id);
    headers.set("authorization", `Bearer ${dataKey}`);
  };
}

export function createOidcClient(options: OidcClientOptions): OidcClient {
  const upstream = options.fetch;
  const customFetch: oidc.CustomFetch | undefined = upstream && ((url, init) => upstream(url, init));
  let discovered: Promise<oidc.ServerMetadata> | null = null;
  let jwksCache: oidc.ExportedJWKSCache | undefined;

  function serverMetadata(): Promise<oidc.ServerMetadata> {
    if (discovered) return discovered;
    const discovery = oidc
      .discovery(new URL(options.issuer), options.clientId, undefined, undefined, {
        ...(customFetch && { [oidc.customFetch]: customFetch }),
        execute: options.allowInsecureRequests ? [oidc.allowInsecureRequests] : [],
        timeout: TIMEOUT_SECONDS,
      })
      .then((config): oidc.ServerMetadata => {
        // A plain copy: the configurations made from it are plain too, and the helper is not data.
        const metadata: oidc.ServerMetadata = { ...config.serverMetadata() };
        return {
          ...metadata,
          ...(options.authorizationEndpoint !== undefined && { authorization_endpoint: options.authorizationEndpoint }),
          ...(options.jwksUri !== undefined && { jwks_uri: options.jwksUri }),
        };
      });
    discovered = discovery;
    discovery.catch(() => {
      discovered = null;
    });
    return discovery;
  }

  return {
    async run(use) {
      const metadata: oidc.ClientMetadata = {
        client_id: options.clientId,
        id_token_signed_response_alg: "ES256",
        [oidc.clockSkew]: Math.round((options.now() - Date.now()) / 1000),
      };
      const config = new oidc.Configuration(await serverMetadata(), options.clientId, metadata, dataKeyAuthentication(options.dataKey));
      config.timeout = TIMEOUT_SECONDS;
      if (customFetch) config[oidc.customFetch] = customFetch;
      if (options.allowInsecureRequests) oidc.allowInsecureRequests(config);
      oidc.enableNonRepudiationChecks(config);
      // Each configuration is new (its clock skew is fixed when it is made); the JWKS it fetched is carried to the next.
      if (jwksCache) oidc.setJwksCache(config, jwksCache);
      try {
        return await use(config);
      } finally {
        jwksCache = oidc.getJwksCache(config) ?? jwksCache;
      }
    },
  };
}
