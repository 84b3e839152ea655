import { describe, expect, it } from "vitest";
import { isServerDown, keepShell, shellRequestKind } from "./shell-cache.ts";

const ORIGIN = "http://localhost:8787";

/** A Cache of Request keys and Response values, as much of one as keepShell uses. */
function memoryCache(paths: string[]): Cache & { paths(): string[] } {
  const kept = new Map(paths.map((path) => [path, new Response(path)]));
  const pathOf = (key: RequestInfo | URL) => new URL(key instanceof Request ? key.url : String(key), ORIGIN).pathname;
  return {
    keys: () => Promise.resolve([...kept.keys()].map((path) => new Request(`${ORIGIN}${path}`))),
    delete: (key: RequestInfo | URL) => Promise.resolve(kept.delete(pathOf(key))),
    put: (key: RequestInfo | URL, response: Response) => {
      kept.set(pathOf(key), response);
      return Promise.resolve();
    },
    paths: () => [...kept.keys()].sort(),
  } as unknown as Cache & { paths(): string[] };
}

describe("the shell worker's rules", () => {
  it("answers page loads and build files of its own origin only, never /api or another method", () => {
    const kind = (url: string, mode = "cors", method = "GET") => shellRequestKind({ url, method, mode }, ORIGIN);
    expect(kind(`${ORIGIN}/slots?facility=a`, "navigate")).toBe("page");
    expect(kind(`${ORIGIN}/assets/index-abc.js`)).toBe("asset");
    expect(kind(`${ORIGIN}/api/slots?x=1`)).toBeNull();
    expect(kind(`${ORIGIN}/app-config`)).toBeNull();
    expect(kind(`${ORIGIN}/api/holds`, "cors", "POST")).toBeNull();
    expect(kind("http://127.0.0.1:9999/assets/index-abc.js")).toBeNull();
    expect(kind(`${ORIGIN}/assets/index-abc.js`, "cors", "HEAD")).toBeNull();
  });

  it("takes no answer, or a gateway's 502, 503 or 504, for the server being down; any other answer is the server's", () => {
    expect(isServerDown(null)).toBe(true);
    for (const status of [502, 503, 504]) expect(isServerDown(new Response(null, { status }))).toBe(true);
    for (const status of [200, 404, 500]) expect(isServerDown(new Response(null, { status }))).toBe(false);
  });

  it("keeps the build's files: fetches those missing, drops those of an earlier build, keeps the page", async () => {
    const cache = memoryCache(["/", "/assets/old-1.js", "/assets/same-2.js"]);
    const fetched: string[] = [];
    await keepShell(cache, { files: ["/assets/same-2.js", "/assets/new-3.js", "/assets/gone-4.js"] }, (path) => {
      fetched.push(path);
      return Promise.resolve(new Response(path, { status: path.includes("gone") ? 404 : 200 }));
    });
    expect(fetched).toEqual(["/assets/new-3.js", "/assets/gone-4.js"]);
    expect(cache.paths()).toEqual(["/", "/assets/new-3.js", "/assets/same-2.js"]);
  });

  it("drops nothing of the earlier build when a file of the new one cannot be fetched", async () => {
    const cache = memoryCache(["/", "/assets/old-1.js"]);
    await expect(keepShell(cache, { files: ["/assets/new-3.js"] }, () => Promise.reject(new TypeError("Failed to fetch")))).rejects.toThrow("Failed to fetch");
    expect(cache.paths()).toEqual(["/", "/assets/old-1.js"]);
  });
});
