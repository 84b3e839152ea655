import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSpaDevServer } from "./dev-server.ts";
import { freePort } from "./testing/free-port.ts";

// `npm run dev`'s SPA: Vite's dev server serves the page from the sources and
// hands Tandem's server routes to the BFF (here a stand-in that names what it got).

let bff: http.Server;
let devServer: Awaited<ReturnType<typeof startSpaDevServer>>;

beforeAll(async () => {
  bff = http.createServer((request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ answeredBy: "bff", url: request.url, host: request.headers.host }));
  });
  const bffPort = await freePort();
  await new Promise<void>((resolve) => bff.listen(bffPort, "127.0.0.1", resolve));
  devServer = await startSpaDevServer({ port: await freePort(), bffUrl: `http://127.0.0.1:${bffPort}` });
}, 30_000);

afterAll(async () => {
  await devServer.close();
  bff.close();
});

describe("npm run dev's SPA", () => {
  it("serves the page from the sources, with Vite's hot reload client", async () => {
    const page = await (await fetch(`${devServer.url}/note?noteId=x`)).text();
    expect(page).toContain("/src/main.tsx");
    expect(page).toContain("/@vite/client");
  });

  it("hands the API, the sign-in, the app's configuration and the health checks to the BFF, keeping the app's host", async () => {
    for (const path of ["/api/session", "/auth/callback?code=c&state=s", "/app-config", "/healthz", "/readyz"]) {
      const response = await fetch(`${devServer.url}${path}`);
      expect(await response.json(), path).toEqual({ answeredBy: "bff", url: path, host: new URL(devServer.url).host });
    }
  });
});
