import { setNonce } from "get-nonce";

// Radix's modal dialogs lock the page's scroll with a `<style>` element
// (react-remove-scroll), which takes its nonce from get-nonce. The page's CSP
// allows a style element only with the nonce the BFF wrote into this page
// (server/static/page-nonce.ts); without it the lock is blocked and the note
// scrolls under an open dialog.

/** Hands the page's CSP nonce to what injects styles; a page without one (the dev server, tests) changes nothing. */
export function adoptPageStyleNonce(page: Document = document): void {
  // The `nonce` property: browsers hide the attribute's value from the DOM once the page is parsed.
  const nonce = page.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce;
  if (nonce) setNonce(nonce);
}
