import { readFileSync } from "node:fs";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { appManifest } from "./app-manifest.ts";

const manifestPath = new URL("../svc.app.toml", import.meta.url);

describe("svc.app.toml", () => {
  const manifest = z.parse(appManifest, parse(readFileSync(manifestPath, "utf8")));

  it("is the tandem app with the scopes of DESIGN.md", () => {
    expect(manifest.slug).toBe("tandem");
    expect(manifest.scopes.required.sort()).toEqual(["read:appointments", "read:facilities", "read:providers", "write:soap_notes"]);
    expect(manifest.scopes.optional).toEqual(["read:patients"]);
  });

  it("registers the sandbox redirect URI on localhost, exactly, without wildcards", () => {
    expect(manifest.oauth.redirect_uris).toContain("http://localhost:8787/auth/callback");
    expect(manifest.oauth.redirect_uris.every((uri) => !uri.includes("*"))).toBe(true);
  });

  it("declares no webhook URL (seed 001: a webhook URL cannot be declared in the manifest)", () => {
    expect(readFileSync(manifestPath, "utf8")).not.toMatch(/^\s*\[?webhook/im);
    expect(Object.keys(manifest)).not.toContain("webhooks");
  });

  it("gives every setting a default inside its bounds", () => {
    for (const [name, question] of Object.entries(manifest.settings)) {
      if (question.type !== "integer") continue;
      expect(question.default, name).toBeGreaterThanOrEqual(question.minimum ?? -Infinity);
      expect(question.default, name).toBeLessThanOrEqual(question.maximum ?? Infinity);
    }
  });

  it("refuses a manifest with a webhook section", () => {
    const withWebhook = { ...manifest, webhooks: { url: "https://example.test/hook" } };
    expect(z.safeParse(appManifest, withWebhook).success).toBe(false);
  });
});
