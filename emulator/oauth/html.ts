import { createHash } from "node:crypto";

// The frame of the sign-in, consent and error pages: plain server-rendered
// HTML with one inline style sheet, allowed by its hash in the CSP (no
// script at all). Everything interpolated goes through `escapeHtml`.

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const STYLE = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #1c2430; background: #eef1f5; }
body { margin: 0; padding: 2rem 1rem; }
main { max-width: 34rem; margin: 0 auto; background: #fff; border: 1px solid #d5dbe3; border-radius: 10px; padding: 1.75rem 2rem; box-shadow: 0 2px 10px rgba(20, 30, 50, 0.06); }
.brand { margin: 0 0 1rem; font-size: 0.85rem; font-weight: 600; letter-spacing: 0.04em; text-transform: uppercase; color: #45556b; }
h1 { font-size: 1.45rem; margin: 0 0 0.75rem; line-height: 1.25; }
h2 { font-size: 1.05rem; margin: 1.5rem 0 0.5rem; }
p { line-height: 1.5; margin: 0.5rem 0; }
.sandbox { background: #fff7e0; border: 1px solid #e8d08c; border-radius: 6px; padding: 0.5rem 0.75rem; font-size: 0.9rem; }
.error { background: #fdecec; border: 1px solid #e3a1a1; color: #7a1616; border-radius: 6px; padding: 0.6rem 0.75rem; }
label { font-weight: 600; }
select { display: block; width: 100%; margin: 0.4rem 0 1rem; padding: 0.5rem; font-size: 1rem; border: 1px solid #8895a7; border-radius: 6px; }
ul.scopes { padding-left: 1.2rem; margin: 0.25rem 0; }
ul.scopes li { margin: 0.3rem 0; line-height: 1.4; }
code { font-size: 0.85em; background: #f0f3f7; padding: 0.05rem 0.3rem; border-radius: 4px; }
.hint { display: block; font-weight: 400; font-size: 0.88rem; color: #45556b; }
fieldset { border: 1px solid #d5dbe3; border-radius: 8px; padding: 0.5rem 1rem 0.75rem; margin: 1rem 0; }
legend { font-weight: 600; padding: 0 0.3rem; }
.org { display: flex; gap: 0.6rem; align-items: flex-start; padding: 0.45rem 0; }
.org input { margin-top: 0.3rem; width: 1.1rem; height: 1.1rem; }
.actions { display: flex; gap: 0.75rem; margin-top: 1.25rem; }
button { font: inherit; font-weight: 600; padding: 0.55rem 1.3rem; border-radius: 6px; border: 1px solid #1d4ed8; cursor: pointer; }
button.primary { background: #1d4ed8; color: #fff; }
button.secondary { background: #fff; color: #1d4ed8; }
button:focus-visible, a:focus-visible, select:focus-visible, input:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
a { color: #1d4ed8; }
.fine { font-size: 0.85rem; color: #45556b; margin-top: 1.25rem; }
`;

const STYLE_HASH = `'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`;

/** No scripts, this page's style only, forms to the emulator and (after their redirect) to the app's origin. */
export function pageHeaders(redirectOrigin: string | null): Record<string, string> {
  const formAction = redirectOrigin === null ? "'none'" : `'self' ${redirectOrigin}`;
  return {
    "Content-Security-Policy": [`default-src 'none'`, `style-src ${STYLE_HASH}`, `img-src data:`, `form-action ${formAction}`, `base-uri 'none'`, `frame-ancestors 'none'`].join("; "),
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
  };
}

/** `title` and `body` are HTML already: the caller escapes what it interpolates. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="brand">Clinic Data Service</p>
${body}
</main>
</body>
</html>
`;
}
