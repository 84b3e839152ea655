import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../scripts/testing/free-port.ts";
import { programArgs, type Program } from "../../scripts/programs.ts";
import { waitUntilHealthy } from "../../scripts/wait-until-healthy.ts";

// One emulator and BFF pair on free ports, as `npm start` runs them: compiled,
// from build/ (`npm run build` first), under plain node. The emulator's clock
// is pinned to `pinnedInstant` (its data is generated relative to it) and the
// BFF runs on the emulator's clock (SANDBOX_CLOCK=emulator). Started once per
// Playwright worker by the `sandboxServers` fixture (fixtures.ts). A spec may
// stop the BFF as a deploy or a crash does and start it again on the same
// port and store (e2e/note-restart.spec.ts).

export interface SandboxServers {
  emulatorUrl: string;
  appUrl: string;
  stop(): Promise<void>;
  /** Stops the BFF and waits for it to exit: SIGTERM drains (ADR 0018), SIGKILL ends it at once. */
  stopBff(signal: "SIGTERM" | "SIGKILL"): Promise<void>;
  /** Starts the BFF again on the same port, store and settings, and waits until it is healthy. */
  restartBff(): Promise<void>;
}

function start(label: string, program: Program, env: NodeJS.ProcessEnv): { child: ChildProcess; log: () => string } {
  const args = programArgs(program, "compiled");
  const script = args.at(-1) ?? "";
  if (!existsSync(script)) throw new Error(`${script} is missing: the e2e suite runs the compiled servers, so run \`npm run build\` first`);
  let output = "";
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, log: () => `[${label}]\n${output.slice(-4000)}` };
}

async function stopChild(child: ChildProcess, signal: "SIGTERM" | "SIGKILL" = "SIGTERM", waitMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill(signal);
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, waitMs))]);
}

export interface SandboxServerOptions {
  /** Extra environment for the BFF, over the sandbox's (e.g. a bench's UPSTREAM_USER_LIMIT). */
  bffEnv?: NodeJS.ProcessEnv;
}

export async function startSandboxServers(pinnedInstant: string, options: SandboxServerOptions = {}): Promise<SandboxServers> {
  const [emulatorPort, bffPort] = [await freePort(), await freePort()];
  const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
  const appUrl = `http://localhost:${bffPort}`;
  const base: NodeJS.ProcessEnv = { ...process.env };
  delete base.CLINIC_API_BASE_URL;
  delete base.DATABASE_URL;
  // One BFF on the embedded store counts its upstream budget alone: the machine's Redis is for the budget's own tests.
  delete base.REDIS_URL;

  const emulator = start("emulator", "emulator", { ...base, PORT: String(emulatorPort), EMULATOR_APP_URL: appUrl, EMULATOR_CLOCK_START: pinnedInstant });
  await waitUntilHealthy(`${emulatorUrl}/healthz`, emulator);
  const bffEnv: NodeJS.ProcessEnv = {
    ...base,
    PORT: String(bffPort),
    SANDBOX_EMULATOR_URL: emulatorUrl,
    SANDBOX_CLOCK: "emulator",
    DATA_DIR: join(mkdtempSync(join(tmpdir(), "tandem-e2e-")), "pglite"),
    LOG_LEVEL: "warn",
    // The specs play one physician's and one front desk's whole day in a minute, several tabs at once, with the
    // support helpers reading as them too: the per-person quota (200 a minute, ADR 0017) is for people, not for that.
    UPSTREAM_USER_LIMIT: "5000",
    ...options.bffEnv,
  };
  let bff = start("bff", "server", bffEnv);
  await waitUntilHealthy(`${appUrl}/healthz`, bff);
  const registered = await fetch(`${emulatorUrl}/_sandbox/webhooks`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: `${appUrl}/webhooks/clinic`, headerStyle: "standard" }) });
  if (!registered.ok) throw new Error(`registering the BFF's webhook URL failed: ${registered.status}`);

  return {
    emulatorUrl,
    appUrl,
    async stop() {
      await stopChild(bff.child);
      await stopChild(emulator.child);
    },
    async stopBff(signal) {
      // A drain waits for open requests up to its grace period (25 s by default).
      await stopChild(bff.child, signal, 30_000);
      if (bff.child.exitCode === null && bff.child.signalCode === null) throw new Error(`the BFF did not exit after ${signal}${bff.log()}`);
    },
    async restartBff() {
      if (bff.child.exitCode === null && bff.child.signalCode === null) throw new Error("the BFF is still running: stop it first");
      bff = start("bff", "server", bffEnv);
      await waitUntilHealthy(`${appUrl}/healthz`, bff);
    },
  };
}

/** Servers of a describe's own (one that stops its BFF, or gives it a store of its own), and the worker's to go back to. */
export interface OwnServers extends SandboxServers {
  /** Stops them; the support helpers talk to the worker's servers again. */
  release(): Promise<void>;
}

/** Starts servers of a describe's own; until `release`, the support helpers (E2E_EMULATOR_URL, E2E_APP_URL) talk to them. */
export async function startOwnServers(pinnedInstant: string, options: SandboxServerOptions = {}): Promise<OwnServers> {
  const servers = await startSandboxServers(pinnedInstant, options);
  const worker = { emulator: process.env.E2E_EMULATOR_URL, app: process.env.E2E_APP_URL };
  process.env.E2E_EMULATOR_URL = servers.emulatorUrl;
  process.env.E2E_APP_URL = servers.appUrl;
  return {
    ...servers,
    async release() {
      for (const [name, value] of [["E2E_EMULATOR_URL", worker.emulator], ["E2E_APP_URL", worker.app]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await servers.stop();
    },
  };
}
