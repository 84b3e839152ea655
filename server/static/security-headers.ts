import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/app-env.ts";
import { setResponseHeader } from "../http/set-response-header.ts";

// DESIGN.md: CSP with frame-ancestors limited to the configured host origins,
// no inline script, images from the service's avatar host; Referrer-Policy;
// X-Content-Type-Options. The SPA's page allows, besides its own files, the
// styles that carry its nonce (page-nonce.ts); nothing else gets inline styles.

export function contentSecurityPolicy(options: { allowedHostOrigins: readonly string[]; avatarOrigins: readonly string[] }, pageNonce?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    pageNonce === undefined ? "style-src 'self'" : `style-src 'self' 'nonce-${pageNonce}'`,
    `img-src 'self' data: ${options.avatarOrigins.join(" ")}`.trim(),
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${options.allowedHostOrigins.length > 0 ? options.allowedHostOrigins.join(" ") : "'none'"}`,
  ].join("; ");
}

export function securityHeaders(options: { allowedHostOrigins: readonly string[]; avatarOrigins: readonly string[]; publicUrl: string }): MiddlewareHandler<AppEnv> {
  const csp = contentSecurityPolicy(options);
  // Served over TLS (behind the proxy, docs/security.md): browsers are to use nothing else for a year.
  const isTls = options.publicUrl.startsWith("https://");
  return async (c, next) => {
    await next();
    if (isTls) setResponseHeader(c, "Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    const pageNonce = c.get("pageNonce");
    setResponseHeader(c, "Content-Security-Policy", pageNonce === undefined ? csp : contentSecurityPolicy(options, pageNonce));
    setResponseHeader(c, "Referrer-Policy", "strict-origin-when-cross-origin");
    setResponseHeader(c, "X-Content-Type-Options", "nosniff");
    setResponseHeader(c, "Cross-Origin-Opener-Policy", "same-origin");
  };
}
