import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";

// The SPA. Routes are files in src/routes (thin); each view is split into
// its own chunk so the initial JavaScript stays small (DESIGN.md budget).

export default defineConfig({
  plugins: [tanstackRouter({ target: "react", autoCodeSplitting: true, routesDirectory: "src/routes", generatedRouteTree: "src/routeTree.gen.ts" }), react(), tailwindcss()],
  // "hidden": maps are written (for error reporting) but not referenced, and the BFF does not serve them.
  build: { outDir: "dist", sourcemap: "hidden", manifest: true },
  server: {
    port: 5173,
    proxy: { "/api": "http://localhost:8787", "/app-config": "http://localhost:8787" },
  },
});
