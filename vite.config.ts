import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import { PAGE_NONCE_PLACEHOLDER } from "./server/static/page-nonce.ts";

// The SPA. Routes are files in src/routes (thin); each view is split into
// its own chunk so the initial JavaScript stays small (DESIGN.md budget).

/** The build's files for the shell worker to keep (src/offline/shell-cache.ts): every one under assets/, not the maps. */
function shellManifest(): Plugin {
  return {
    name: "tandem-shell-manifest",
    apply: "build",
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle)
        .filter((fileName) => fileName.startsWith("assets/") && !fileName.endsWith(".map"))
        .sort()
        .map((fileName) => `/${fileName}`);
      this.emitFile({ type: "asset", fileName: "shell-manifest.json", source: JSON.stringify({ files }) });
    },
  };
}

export default defineConfig({
  plugins: [tanstackRouter({ target: "react", autoCodeSplitting: true, routesDirectory: "src/routes", generatedRouteTree: "src/routeTree.gen.ts" }), react(), tailwindcss(), shellManifest()],
  // "hidden": maps are written (for error reporting) but not referenced, and the BFF does not serve them.
  build: { outDir: "dist", sourcemap: "hidden", manifest: true },
  // The BFF gives each answer with the page a nonce of its own in place of this (server/static/page-nonce.ts).
  html: { cspNonce: PAGE_NONCE_PLACEHOLDER },
});
