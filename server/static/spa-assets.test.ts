import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppEnv } from "../http/app-env.ts";
import { PAGE_NONCE_PLACEHOLDER } from "./page-nonce.ts";
import { securityHeaders } from "./security-headers.ts";
import { registerSpaAssets } from "./spa-assets.ts";

// Only what the page needs leaves `dist/` (docs/security.md "The SPA's page").

let parent: string;
let app: Hono<AppEnv>;

beforeAll(async () => {
  parent = await mkdtemp(join(tmpdir(), "tandem-spa-"));
  const dist = join(parent, "dist");
  await mkdir(join(dist, "assets"), { recursive: true });
  await mkdir(join(dist, ".vite"), { recursive: true });
  await mkdir(join(parent, "dist.bak"), { recursive: true });
  await writeFile(
    join(dist, "index.html"),
    `<!doctype html><title>Tandem</title><meta property="csp-nonce" nonce="${PAGE_NONCE_PLACEHOLDER}"><script type="module" src="/assets/main-abc.js" nonce="${PAGE_NONCE_PLACEHOLDER}"></script>`,
  );
  await writeFile(join(dist, "assets", "main-abc.js"), "console.log(1)");
  await writeFile(join(dist, "assets", "main-abc.js.map"), '{"sources":["secret source"]}');
  await writeFile(join(dist, "assets", "shell-worker-Dx1_a.js"), "self.addEventListener('fetch', () => {})");
  await writeFile(join(dist, ".vite", "manifest.json"), "{}");
  await writeFile(join(parent, "dist.bak", "secret.txt"), "secret");
  app = new Hono<AppEnv>();
  app.use(securityHeaders({ allowedHostOrigins: ["https://ehr.example"], avatarOrigins: [], publicUrl: "https://tandem.example" }));
  registerSpaAssets(app, dist);
});

afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

const get = (path: string) => app.request(`http://localhost${path}`);

describe("the built SPA's files", () => {
  it("serves the page and its hashed assets, and the page for a client-side route", async () => {
    const asset = await get("/assets/main-abc.js");
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toContain("immutable");
    const route = await get("/slots");
    expect(route.status).toBe(200);
    expect(await route.text()).toContain("<title>Tandem</title>");
  });

  it("gives each answer with the page a nonce of its own, which its CSP allows styles with, and nothing else inline styles", async () => {
    const nonces: string[] = [];
    for (const path of ["/", "/index.html", "/note"]) {
      const page = await get(path);
      const html = await page.text();
      expect(html, path).not.toContain(PAGE_NONCE_PLACEHOLDER);
      const nonce = /<meta property="csp-nonce" nonce="([^"]+)">/.exec(html)?.[1] ?? "";
      expect(nonce, path).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(html.match(new RegExp(`nonce="${nonce.replace(/[+/]/g, "\\$&")}"`, "g")), path).toHaveLength(2);
      expect(page.headers.get("content-security-policy"), path).toContain(`style-src 'self' 'nonce-${nonce}';`);
      expect(page.headers.get("content-security-policy"), path).toContain("script-src 'self';");
      nonces.push(nonce);
    }
    expect(new Set(nonces).size).toBe(3);
    expect((await get("/assets/main-abc.js")).headers.get("content-security-policy")).toContain("style-src 'self';");
  });

  it("gives the shell worker, and it only, the whole app as its scope", async () => {
    expect((await get("/assets/shell-worker-Dx1_a.js")).headers.get("service-worker-allowed")).toBe("/");
    expect((await get("/assets/main-abc.js")).headers.get("service-worker-allowed")).toBeNull();
  });

  it("never serves a file of a sibling folder whose name starts like dist's", async () => {
    for (const path of ["/..%2Fdist.bak%2Fsecret.txt", "/../dist.bak/secret.txt", "/%2e%2e/dist.bak/secret.txt"]) {
      const response = await get(path);
      expect(await response.text(), path).not.toContain("secret");
    }
    expect((await get("/..%2Fdist.bak%2Fsecret.txt")).status).toBe(404);
  });

  it("does not publish source maps or Vite's manifest", async () => {
    for (const path of ["/assets/main-abc.js.map", "/.vite/manifest.json", "/.vite/"]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain("secret source");
    }
  });
});
