import { randomBytes } from "node:crypto";

// The page's CSP nonce. Vite writes the placeholder into `dist/index.html`
// (`html.cspNonce` in vite.config.ts: a `<meta property="csp-nonce">` and the
// nonce of its own tags); the BFF replaces it with a new random value in each
// answer with the page and allows styles carrying that value
// (security-headers.ts). The SPA hands it to Radix's modal dialogs, whose
// scroll lock is a `<style>` element (react-remove-scroll): without the nonce
// `style-src 'self'` blocks it and the page scrolls under an open dialog.

export const PAGE_NONCE_PLACEHOLDER = "TANDEM_PAGE_NONCE";

/** 128 random bits, base64 (CSP Level 3: at least 128 bits, generated for each response). */
export function newPageNonce(): string {
  return randomBytes(16).toString("base64");
}

/** The page with the placeholder replaced by this answer's nonce. */
export function pageWithNonce(page: Buffer, nonce: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(page.toString("utf8").replaceAll(PAGE_NONCE_PLACEHOLDER, nonce));
}
