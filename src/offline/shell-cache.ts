import * as z from "zod/mini";

// What the shell worker (shell-worker.ts) keeps: the app's shell, never data.
// Its files are the build's own list (`shell-manifest.json`, written by
// vite.config.ts): the page itself, kept under "/", and every file of
// `dist/assets/`, lazily loaded views included, so a reload while Tandem's
// server is down still opens the app, which then says the server is not
// answering and connects by itself once it is back. `/api` and anything
// else are never kept or answered from here.

export const SHELL_CACHE = "tandem-shell";
export const SHELL_MANIFEST_PATH = "/shell-manifest.json";
/** The page, whatever address the frame was opened at: the client-side router reads the address. */
export const SHELL_PAGE = "/";

export const shellManifest = z.object({ files: z.array(z.string().check(z.regex(/^\/assets\/[\w.-]+$/))) });
export type ShellManifest = z.infer<typeof shellManifest>;

/** How the worker treats a request: a page load (the network first, the kept page when it fails), a build file (kept first), or not at all. */
export function shellRequestKind(request: { url: string; method: string; mode: string }, origin: string): "page" | "asset" | null {
  const url = new URL(request.url);
  if (url.origin !== origin || request.method !== "GET") return null;
  if (request.mode === "navigate") return "page";
  return url.pathname.startsWith("/assets/") ? "asset" : null;
}

/** A page load the network did not answer with the page: Tandem's server down, or a proxy before it answering for it. */
export function isServerDown(response: Response | null): boolean {
  return response === null || response.status === 502 || response.status === 503 || response.status === 504;
}

/**
 * The kept files made the build's: what it lists and is not kept is fetched, then what it no longer lists is
 * dropped. A fetch that fails throws before anything is dropped: the earlier build's files stay kept.
 */
export async function keepShell(cache: Cache, manifest: ShellManifest, fetchFile: (path: string) => Promise<Response>): Promise<void> {
  const wanted = new Set(manifest.files);
  const kept = (await cache.keys()).map((request) => ({ request, path: new URL(request.url).pathname }));
  const keptPaths = new Set(kept.map(({ path }) => path));
  for (const path of wanted) {
    if (keptPaths.has(path)) continue;
    const response = await fetchFile(path);
    if (response.ok) await cache.put(path, response);
  }
  for (const { request, path } of kept) if (path !== SHELL_PAGE && !wanted.has(path)) await cache.delete(request);
}
