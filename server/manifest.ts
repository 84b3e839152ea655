import { readFileSync } from "node:fs";
import { parse } from "smol-toml";
import * as z from "zod/mini";
import { appManifest, type AppManifest } from "#contract/app-manifest.ts";

/** The app manifest, read once: the slug (token audience) and the required scopes come from it. */
export function readAppManifest(path: URL = new URL("../svc.app.toml", import.meta.url)): AppManifest {
  return z.parse(appManifest, parse(readFileSync(path, "utf8")));
}
