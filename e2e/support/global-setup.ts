import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { freePort } from "../../scripts/free-port.ts";
import { waitUntilHealthy } from "../../scripts/wait-until-healthy.ts";
import { join } from "node:path";

// Starts the emulator and the BFF (serving the built SPA from dist/) on free
// ports, as `npm start` does, and hands their URLs to the tests through the
// environment. Returns the teardown.


function start(label: string, script: string, env: NodeJS.ProcessEnv): { child: ChildProcess; log: () => string } {
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", script], { env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, log: () => `[${label}]\n${output.slice(-4000)}` };
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const [emulatorPort, bffPort] = [await freePort(), await freePort()];
  const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
  const appUrl = `http://localhost:${bffPort}`;
  const base: NodeJS.ProcessEnv = { ...process.env };
  delete base.CLINIC_API_BASE_URL;
  delete base.DATABASE_URL;

  const emulator = start("emulator", "emulator/index.ts", { ...base, PORT: String(emulatorPort), EMULATOR_APP_URL: appUrl });
  await waitUntilHealthy(`${emulatorUrl}/healthz`, emulator);
  const bff = start("bff", "server/index.ts", {
    ...base,
    PORT: String(bffPort),
    SANDBOX_EMULATOR_URL: emulatorUrl,
    DATA_DIR: join(mkdtempSync(join(tmpdir(), "tandem-e2e-")), "pglite"),
    LOG_LEVEL: "warn",
  });
  await waitUntilHealthy(`${appUrl}/healthz`, bff);
  await fetch(`${emulatorUrl}/_sandbox/webhooks`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: `${appUrl}/webhooks/clinic`, headerStyle: "standard" }) });

  process.env.E2E_EMULATOR_URL = emulatorUrl;
  process.env.E2E_APP_URL = appUrl;

  return async () => {
    for (const { child } of [bff, emulator]) child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
  };
}
