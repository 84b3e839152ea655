import * as z from "zod/mini";
import { isServerDown, keepShell, SHELL_CACHE, SHELL_MANIFEST_PATH, SHELL_PAGE, shellManifest, shellRequestKind } from "./shell-cache.ts";

// The service worker (built on its own to `/assets/shell-worker-<hash>.js`,
// registered by register-shell-worker.ts): it keeps the app's shell
// (shell-cache.ts) so a reload while Tandem's server restarts opens the app
// instead of the browser's error page in the EHR's frame. A page load goes
// to the network first, so a new deploy is picked up at once; the kept page
// answers only when the server does not. Each build is a new worker (its
// name has the build's hash): installed, it keeps that build's shell.

// The worker's own scope, typed here: the browser code is checked against the DOM's types, not the WebWorker's.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface ShellWorkerScope {
  readonly location: Location;
  skipWaiting(): Promise<void>;
  readonly clients: { claim(): Promise<void> };
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
}

const worker = self as unknown as ShellWorkerScope;

async function fetchOrNull(request: Request | string): Promise<Response | null> {
  try {
    return await fetch(request);
  } catch {
    return null;
  }
}

/** The build's list of files, then the cache made to hold them; a failure fails the install (the worker before stays). */
async function refreshShell(): Promise<void> {
  const response = await fetch(SHELL_MANIFEST_PATH, { cache: "no-store" });
  if (!response.ok) throw new Error(`${SHELL_MANIFEST_PATH}: HTTP ${response.status}`);
  const manifest = z.parse(shellManifest, await response.json());
  const cache = await caches.open(SHELL_CACHE);
  await keepShell(cache, manifest, (path) => fetch(path, { cache: "no-store" }));
  const page = await fetch(SHELL_PAGE, { cache: "no-store" });
  if (page.ok) await cache.put(SHELL_PAGE, page);
}

async function loadPage(request: Request): Promise<Response> {
  const response = await fetchOrNull(request);
  if (response !== null && !isServerDown(response)) return response;
  const kept = await caches.match(SHELL_PAGE, { cacheName: SHELL_CACHE });
  return kept ?? response ?? Response.error();
}

async function loadAsset(request: Request): Promise<Response> {
  const kept = await caches.match(request, { cacheName: SHELL_CACHE });
  if (kept) return kept;
  const response = await fetch(request);
  // Hashed, so never changed: kept once fetched.
  if (response.ok) {
    const cache = await caches.open(SHELL_CACHE);
    await cache.put(request, response.clone());
  }
  return response;
}

worker.addEventListener("install", (event) => {
  event.waitUntil(refreshShell().then(() => worker.skipWaiting()));
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(worker.clients.claim());
});

worker.addEventListener("fetch", (event) => {
  const kind = shellRequestKind(event.request, worker.location.origin);
  if (kind === "page") event.respondWith(loadPage(event.request));
  else if (kind === "asset") event.respondWith(loadAsset(event.request));
});
