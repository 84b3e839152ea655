import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { programArgs, RUNNING_COMPILED, type Program } from "./programs.ts";
import { waitUntilHealthy } from "./wait-until-healthy.ts";

// `npm start` (compiled: build/scripts/start.js) and `npm run dev` (this file
// under tsx, --watch). Sandbox mode (no CLINIC_API_BASE_URL): the emulator
// and the BFF together, one command, both logs labelled, a clean shutdown on
// Ctrl-C or SIGTERM; the BFF's webhook URL registered with the emulator; the
// host page URL printed. With CLINIC_API_BASE_URL: the BFF alone (it refuses
// to start without the real service's settings). Compiled, both programs run
// compiled under plain node; from source, under tsx. In watch mode the SPA
// comes from Vite's dev server with hot reload (dev-server.ts,
// `DEV_SERVER_PORT`, default 5173), which is then the app's address.

const isSandbox = process.env.CLINIC_API_BASE_URL === undefined;
const emulatorPort = Number(process.env.EMULATOR_PORT ?? 4010);
const bffPort = Number(process.env.PORT ?? 8787);
const devServerPort = Number(process.env.DEV_SERVER_PORT ?? 5173);
const mode = RUNNING_COMPILED ? "compiled" : process.argv.includes("--watch") ? "watch" : "source";
const children: ChildProcess[] = [];
/** What else to stop on the way out (the dev server). */
const closers: (() => Promise<void>)[] = [];

function run(label: string, program: Program, env: NodeJS.ProcessEnv): ChildProcess {
  // The emulator is never watched: restarting it would lose its state and the webhook registration.
  const child = spawn(process.execPath, programArgs(program, program === "emulator" && mode === "watch" ? "source" : mode), { env, stdio: ["ignore", "pipe", "pipe"] });
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on("line", (line) => process.stdout.write(`[${label}] ${line}\n`));
  }
  child.on("exit", (code, signal) => {
    if (shuttingDown) return;
    process.stdout.write(`[${label}] exited (${signal ?? code}); stopping\n`);
    shutdown(code ?? 1);
  });
  children.push(child);
  return child;
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve(child.exitCode ?? 1) : new Promise<number>((resolve) => child.once("exit", (code) => resolve(code ?? 1)));

let shuttingDown = false;
/**
 * Stops every child and exits once they have: the BFF drains its requests in
 * flight first (it bounds that wait itself). Once only: one Ctrl-C under
 * `npm start` arrives twice (from the terminal and forwarded by npm). A
 * second Ctrl-C reaches the BFF from the terminal, which then stops at once.
 */
function shutdown(code = 0): void {
  if (shuttingDown) return;
  shuttingDown = true;
  for (const child of children) child.kill("SIGTERM");
  void Promise.all([...children.map(exited), ...closers.map((close) => close().then(() => 0))]).then((codes) => process.exit(codes.find((childCode) => childCode !== 0) ?? code));
}
process.on("SIGINT", () => shutdown(0));
process.on("SIGTERM", () => shutdown(0));

if (!isSandbox) {
  run("bff", "server", process.env);
} else {
  const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
  const bffUrl = `http://localhost:${bffPort}`;
  // The app's address: the page, its calls and the sign-in's redirect all go there.
  const appUrl = mode === "watch" ? `http://localhost:${devServerPort}` : bffUrl;
  run("emulator", "emulator", { ...process.env, PORT: String(emulatorPort), EMULATOR_APP_URL: process.env.EMULATOR_APP_URL ?? appUrl });
  await waitUntilHealthy(`${emulatorUrl}/healthz`, { timeoutMs: 30_000 });
  run("bff", "server", {
    ...process.env,
    PORT: String(bffPort),
    PUBLIC_URL: process.env.PUBLIC_URL ?? appUrl,
    SANDBOX_EMULATOR_URL: emulatorUrl,
    // A sandbox pinned to an instant: the BFF runs on the emulator's timeline.
    ...(process.env.EMULATOR_CLOCK_START !== undefined && { SANDBOX_CLOCK: "emulator" }),
  });
  await waitUntilHealthy(`${bffUrl}/healthz`, { timeoutMs: 30_000 });
  if (mode === "watch") {
    const { startSpaDevServer } = await import("./dev-server.ts");
    const devServer = await startSpaDevServer({ port: devServerPort, bffUrl });
    closers.push(devServer.close);
  }
  const registered = await fetch(`${emulatorUrl}/_sandbox/webhooks`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url: `${bffUrl}/webhooks/clinic`, headerStyle: "standard" }),
  });
  if (!registered.ok) throw new Error(`registering the webhook URL failed: ${registered.status}`);
  process.stdout.write(`\nTandem sandbox is running.\n  Open the EHR host page: ${emulatorUrl}/_sandbox/host\n  The app:                ${appUrl}${mode === "watch" ? " (Vite's dev server, hot reload; the BFF behind it on " + bffUrl + ")" : " (the BFF)"}\n  The emulated service:   ${emulatorUrl}\nCtrl-C stops ${mode === "watch" ? "all three" : "both"}.\n\n`);
}
