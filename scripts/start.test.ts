import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { freePort } from "./free-port.ts";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// `npm start` for real: two processes on free ports, the webhook URL
// registered, the printed host page URL, the BFF answering a token from the
// emulator's platform issuer, and a clean shutdown on Ctrl-C (SIGINT).

const ORG_A = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";


let child: ChildProcess | undefined;
let output = "";

afterAll(() => {
  child?.kill("SIGKILL");
});

describe("npm start (sandbox)", () => {
  it("starts the emulator and the BFF, wires webhooks, prints the host page, and stops both on Ctrl-C", { timeout: 90_000 }, async () => {
    const [emulatorPort, bffPort] = [await freePort(), await freePort()];
    const env: NodeJS.ProcessEnv = { ...process.env, EMULATOR_PORT: String(emulatorPort), PORT: String(bffPort), DATA_DIR: join(mkdtempSync(join(tmpdir(), "tandem-start-")), "pglite"), LOG_LEVEL: "info" };
    delete env.CLINIC_API_BASE_URL;
    delete env.DATABASE_URL;
    child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));

    const deadline = Date.now() + 60_000;
    while (!output.includes("Tandem sandbox is running")) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const emulator = `http://127.0.0.1:${emulatorPort}`;
    expect(output).toContain(`${emulator}/_sandbox/host`);
    expect(output).toMatch(/\[emulator\] /);
    expect(output).toMatch(/\[bff\] /);

    const webhooks = (await (await fetch(`${emulator}/_sandbox/webhooks`)).json()) as { target: { url: string } };
    expect(webhooks.target.url).toBe(`http://localhost:${bffPort}/webhooks/clinic`);

    const users = (await (await fetch(`${emulator}/_sandbox/ehr/${ORG_A}/users`)).json()) as { users: { id: string }[] };
    const tokenResponse = await fetch(`${emulator}/_sandbox/host-token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ organizationId: ORG_A, userId: users.users[0]?.id }) });
    const { token } = (await tokenResponse.json()) as { token: string };
    const session = await fetch(`http://127.0.0.1:${bffPort}/api/session`, { headers: { authorization: `Bearer ${token}` } });
    expect(session.status).toBe(200);
    expect(((await session.json()) as { organization: { id: string } }).organization.id).toBe(ORG_A);

    // A lifecycle event travels over real HTTP, signed, to the BFF's receiver.
    await fetch(`${emulator}/_sandbox/webhooks/test`, { method: "POST" });
    for (let i = 0; i < 50; i += 1) {
      const { attempts } = (await (await fetch(`${emulator}/_sandbox/webhooks`)).json()) as { attempts: { eventType: string; status: number | null }[] };
      if (attempts.some((attempt) => attempt.eventType === "test.event" && attempt.status === 200)) break;
      if (i === 49) throw new Error(`test.event not delivered: ${JSON.stringify(attempts)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const exited = new Promise<number | null>((resolve) => child?.once("exit", (code) => resolve(code)));
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    await expect(fetch(`${emulator}/healthz`)).rejects.toThrow();
    await expect(fetch(`http://127.0.0.1:${bffPort}/healthz`)).rejects.toThrow();
  });
});
