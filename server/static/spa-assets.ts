import { readFile, stat } from "node:fs/promises";
import { basename, extname, join, normalize, resolve, sep } from "node:path";
import type { Context, Hono } from "hono";
import type { AppEnv } from "../http/app-env.ts";
import { newPageNonce, pageWithNonce } from "./page-nonce.ts";

// The built SPA (`dist/`): hashed assets are immutable, `index.html` is never
// cached (so a deploy is picked up at once), and unknown paths fall back to
// `index.html` for the client-side router. Only what the page needs is
// served: never a file outside `dist/`, never a source map (they carry the
// whole source; kept in `dist/` for error reporting) and never a dot-folder
// (`.vite/manifest.json`, read by the bench).

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

async function readIfFile(path: string): Promise<Buffer | null> {
  try {
    return (await stat(path)).isFile() ? await readFile(path) : null;
  } catch {
    return null;
  }
}

/** A source map, or anything under a dot-folder or dot-file: in `dist/`, not for the browser. */
function isUnpublished(relativePath: string): boolean {
  return extname(relativePath) === ".map" || relativePath.split(sep).some((segment) => segment.startsWith("."));
}

/** The SPA's service worker (src/offline/shell-worker.ts), built under assets/ and given the whole app as its scope. */
function isShellWorker(path: string): boolean {
  return /^shell-worker-[\w-]+\.js$/.test(basename(path));
}

/** The page, with a nonce of its own for this answer's CSP (page-nonce.ts); never cached, so a deploy is picked up at once. */
function servePage(c: Context<AppEnv>, page: Buffer): Response {
  const nonce = newPageNonce();
  c.set("pageNonce", nonce);
  return c.body(pageWithNonce(page, nonce), 200, { "Content-Type": CONTENT_TYPES[".html"] ?? "text/html", "Cache-Control": "no-cache" });
}

export function registerSpaAssets(app: Hono<AppEnv>, distDir: string): void {
  const root = resolve(distDir);
  const indexPath = join(root, "index.html");
  app.get("*", async (c) => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(c.req.url).pathname);
    } catch {
      // Malformed percent-encoding (`/%`, `/%zz`) names no file.
      return c.notFound();
    }
    const requested = normalize(join(root, pathname));
    // With the separator: a sibling such as `dist.bak/` also starts with the root's text.
    if (requested !== root && !requested.startsWith(root + sep)) return c.notFound();
    if (isUnpublished(requested.slice(root.length))) return c.notFound();
    const isAsset = requested.startsWith(join(root, "assets") + sep);
    const file = await readIfFile(requested);
    if (file && requested === indexPath) return servePage(c, file);
    if (file) {
      const cacheControl = isAsset ? "public, max-age=31536000, immutable" : extname(requested) === ".html" ? "no-cache" : "public, max-age=3600";
      const headers: Record<string, string> = { "Content-Type": CONTENT_TYPES[extname(requested)] ?? "application/octet-stream", "Cache-Control": cacheControl };
      if (isAsset && isShellWorker(requested)) headers["Service-Worker-Allowed"] = "/";
      return c.body(new Uint8Array(file), 200, headers);
    }
    if (isAsset || extname(requested) !== "") return c.notFound();
    const index = await readIfFile(indexPath);
    if (!index) return c.text("Tandem's app is not built: run `npm run build`.", 503);
    return servePage(c, index);
  });
}
