// `npm run dev`'s SPA: Vite's dev server with hot reload, in front of the BFF.
// The EHR's host page embeds it (it is the app's origin in dev), and it hands
// Tandem's server routes to the BFF, so the page, its calls and the
// standalone sign-in's cookies share one origin, as in production. Loaded
// only in watch mode: `npm start` never imports Vite.

/** The paths the BFF answers behind the dev server, the app's own host kept (as the TLS proxy of a deployment does); everything else is the SPA's. */
export const BFF_PATHS = ["/api", "/app-config", "/auth", "/healthz", "/readyz"] as const;

export async function startSpaDevServer(options: { port: number; bffUrl: string }): Promise<{ url: string; close: () => Promise<void> }> {
  const { createServer } = await import("vite");
  const server = await createServer({
    clearScreen: false,
    server: { port: options.port, strictPort: true, proxy: Object.fromEntries(BFF_PATHS.map((path) => [path, { target: options.bffUrl, changeOrigin: false }])) },
  });
  await server.listen();
  return { url: `http://localhost:${options.port}`, close: () => server.close() };
}
