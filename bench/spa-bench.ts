import { readFileSync, existsSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { pathToFileURL } from "node:url";
import { chromium } from "@playwright/test";
import * as z from "zod/mini";
import { startSandboxServers } from "../e2e/support/sandbox-servers.ts";
import { percentile, round } from "./measure.ts";

// DESIGN.md "Performance budgets": the SPA's initial JavaScript (gzip) and each lazily loaded
// route chunk, from Vite's manifest; and the time from loading the EHR host
// page to an interactive shell inside its iframe, in Chromium, median of 10.

const manifestEntry = z.object({ file: z.string(), isEntry: z.optional(z.boolean()), isDynamicEntry: z.optional(z.boolean()), imports: z.optional(z.array(z.string())), src: z.optional(z.string()) });
const manifestSchema = z.record(z.string(), manifestEntry);

const gzipKb = (file: string) => round(gzipSync(readFileSync(`dist/${file}`)).length / 1024, 1);

export function measureBundle(): Record<string, unknown> {
  if (!existsSync("dist/.vite/manifest.json")) throw new Error("dist/.vite/manifest.json missing: run `npm run build` first");
  const manifest = z.parse(manifestSchema, JSON.parse(readFileSync("dist/.vite/manifest.json", "utf8")));
  const initial = new Set<string>();
  const visit = (key: string) => {
    const entry = manifest[key];
    if (!entry || initial.has(entry.file)) return;
    initial.add(entry.file);
    for (const imported of entry.imports ?? []) visit(imported);
  };
  for (const [key, entry] of Object.entries(manifest)) if (entry.isEntry) visit(key);
  const initialKb = round([...initial].filter((file) => file.endsWith(".js")).reduce((total, file) => total + gzipKb(file), 0), 1);
  const routeChunks = Object.fromEntries(
    Object.values(manifest)
      .filter((entry) => entry.isDynamicEntry)
      .map((entry) => [entry.src ?? entry.file, gzipKb(entry.file)]),
  );
  return { bench: "spa-bundle", initialJsGzipKb: initialKb, budgetKb: 150, withinBudget: initialKb <= 150, routeChunksGzipKb: routeChunks };
}

export async function measureShellStartup(runs = 10): Promise<Record<string, unknown>> {
  // Benchmarks run the browser on real time, so the sandbox starts at the real instant.
  const servers = await startSandboxServers(new Date().toISOString());
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic", "--disable-gpu"] });
  try {
    const durations: number[] = [];
    for (let i = 0; i < runs + 1; i += 1) {
      const page = await browser.newPage();
      const start = performance.now();
      await page.goto(`${servers.emulatorUrl}/_sandbox/host`);
      await page.frameLocator("iframe#tandem-app").getByTestId("signed-in-user").waitFor();
      if (i > 0) durations.push(performance.now() - start);
      await page.close();
    }
    durations.sort((a, b) => a - b);
    return { bench: "spa-shell-startup", runs, medianMs: round(percentile(durations, 50), 0), p95Ms: round(percentile(durations, 95), 0), note: "host page load to the signed-in user shown in the iframe" };
  } finally {
    await browser.close();
    await servers.stop();
  }
}

export async function runSpaBench(): Promise<Record<string, unknown>[]> {
  return [measureBundle(), await measureShellStartup()];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await runSpaBench()) console.log(JSON.stringify(line));
}
