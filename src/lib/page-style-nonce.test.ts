// @vitest-environment happy-dom
import { getNonce, setNonce } from "get-nonce";
import { afterEach, describe, expect, it } from "vitest";
import { adoptPageStyleNonce } from "./page-style-nonce.ts";

function documentWithNonce(nonce: string | null): Document {
  const page = document.implementation.createHTMLDocument("Tandem");
  const meta = page.createElement("meta");
  meta.setAttribute("property", "csp-nonce");
  if (nonce !== null) meta.nonce = nonce;
  page.head.append(meta);
  return page;
}

afterEach(() => setNonce(""));

describe("the page's CSP nonce for styles the app injects", () => {
  it("is handed to get-nonce, where Radix's scroll lock reads it", () => {
    adoptPageStyleNonce(documentWithNonce("r4nd0mBase64Value=="));
    expect(getNonce()).toBe("r4nd0mBase64Value==");
  });

  it("changes nothing on a page without one", () => {
    adoptPageStyleNonce(documentWithNonce(null));
    adoptPageStyleNonce(document.implementation.createHTMLDocument("no meta"));
    expect(getNonce()).toBeFalsy();
  });
});
