import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { waitUntilHealthy } from "./wait-until-healthy.ts";

// `npm start`. Sandbox mode (no CLINIC_API_BASE_URL): the emulator and the
// BFF together, one command, both logs labelled, clean shutdown on Ctrl-C;
// the BFF's webhook URL registered with the emulator; the host page URL
// printed. With CLINIC_API_BASE_URL: the BFF alone (it refuses to start
// without the real service's settings).

const isSandbox = process.env.CLINIC_API_BASE_URL === undefined;
const emulatorPort = Number(process.env.EMULATOR_PORT ?? 4010);
const bffPort = Number(process.env.PORT ?? 8787);
const watch = process.argv.includes("--watch");
const children: ChildProcess[] = [];

function run(label: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on("line", (line) => process.stdout.write(`[${label}] ${line}\n`));
  }
  child.on("exit", (code, signal) => {
    if (!shuttingDown) {
      process.stdout.write(`[${label}] exited (${signal ?? code}); stopping\n`);
      shutdown(code ?? 1);
    }
  });
  children.push(child);
  return child;
}

let shuttingDown = false;
function shutdown(code = 0): void {
  if (shuttingDown) return;
  shuttingDown = true;
  for (const child of children) child.kill("SIGTERM");
  setTimeout(() => process.exit(code), 500).unref();
}
process.on("SIGINT", () => shutdown(0));
process.on("SIGTERM", () => shutdown(0));

const watchArgs = watch ? ["watch"] : [];
if (!isSandbox) {
  run("bff", [...watchArgs, "server/index.ts"], process.env);
} else {
  const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
  const appUrl = `http://localhost:${bffPort}`;
  run("emulator", ["emulator/index.ts"], { ...process.env, PORT: String(emulatorPort), EMULATOR_APP_URL: process.env.EMULATOR_APP_URL ?? appUrl });
  await waitUntilHealthy(`${emulatorUrl}/healthz`, { timeoutMs: 30_000 });
  run("bff", [...watchArgs, "server/index.ts"], {
    ...process.env,
    PORT: String(bffPort),
    SANDBOX_EMULATOR_URL: emulatorUrl,
    // A sandbox pinned to an instant: the BFF runs on the emulator's timeline.
    ...(process.env.EMULATOR_CLOCK_START !== undefined && { SANDBOX_CLOCK: "emulator" }),
  });
  await waitUntilHealthy(`${appUrl}/healthz`, { timeoutMs: 30_000 });
  const registered = await fetch(`${emulatorUrl}/_sandbox/webhooks`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url: `${appUrl}/webhooks/clinic`, headerStyle: "standard" }),
  });
  if (!registered.ok) throw new Error(`registering the webhook URL failed: ${registered.status}`);
  process.stdout.write(`\nTandem sandbox is running.\n  Open the EHR host page: ${emulatorUrl}/_sandbox/host\n  The app (BFF):          ${appUrl}\n  The emulated service:   ${emulatorUrl}\nCtrl-C stops both.\n\n`);
}
