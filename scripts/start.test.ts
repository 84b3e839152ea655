import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./testing/free-port.ts";
import { REPO_ROOT } from "./programs.ts";
import { waitUntilHealthy } from "./wait-until-healthy.ts";

// `npm start` as it runs: the programs compiled (this tree built into a
// temporary folder, as `npm run build` writes build/) and run by plain
// `node`, no TypeScript loader anywhere. In the sandbox: two processes on
// free ports, the webhook URL registered, the host page URL printed, health
// and readiness, a host token from the emulator's issuer accepted, a clean
// stop on Ctrl-C. Against a service (the compiled emulator behind a proxy
// that holds note writes until told): the BFF alone, and SIGTERM's drain.

const ORG_A = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
const DATA_KEY = "svc_dev_ak_5a0d1e2f3a4b5c6d7e8f90a1b2c3d4e5";
const WEBHOOK_SECRET = "whsec_AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcY";

const workDir = mkdtempSync(join(tmpdir(), "tandem-start-"));
const buildDir = join(workDir, "build");
const started: ChildProcess[] = [];
const closers: (() => void)[] = [];

beforeAll(() => {
  execFileSync(process.execPath, ["--import", "tsx", join(REPO_ROOT, "scripts/build-server.ts"), "--out-dir", buildDir], { cwd: REPO_ROOT, stdio: "pipe" });
  // The compiled modules find their dependencies as build/ does: in a node_modules above them.
  symlinkSync(join(REPO_ROOT, "node_modules"), join(workDir, "node_modules"), "dir");
}, 180_000);

afterAll(() => {
  for (const child of started) child.kill("SIGKILL");
  for (const close of closers) close();
});

/** Plain node, as production runs it: nothing inherited may load a loader either. */
function plainEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "info", ...overrides };
  for (const name of ["NODE_OPTIONS", "CLINIC_API_BASE_URL", "DATABASE_URL", "REDIS_URL", "SANDBOX_EMULATOR_URL", "SANDBOX_CLOCK", "EMULATOR_CLOCK_START"]) {
    if (!(name in overrides)) delete env[name];
  }
  return env;
}

interface Running {
  child: ChildProcess;
  output: () => string;
  /** Resolves once the output contains `text`. */
  printed(text: string): Promise<void>;
  exited: Promise<number | null>;
}

function startNode(args: string[], env: NodeJS.ProcessEnv): Running {
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  started.push(child);
  let output = "";
  const waiting: { text: string; resolve: () => void }[] = [];
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const waiter of waiting.filter(({ text }) => output.includes(text))) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);
  return {
    child,
    output: () => output,
    exited,
    printed: (text) =>
      output.includes(text)
        ? Promise.resolve()
        : Promise.race([
            new Promise<void>((resolve) => waiting.push({ text, resolve })),
            exited.then((code) => Promise.reject(new Error(`exited (${code}) before printing ${JSON.stringify(text)}:\n${output.slice(-4000)}`))),
          ]),
  };
}

/** Linux: the command line and NODE_OPTIONS of `pid` and of its children, so no TypeScript loader can hide in either. */
function commandLinesOf(pid: number): string[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  return [pid, ...children].map((id) => {
    const argv = readFileSync(`/proc/${id}/cmdline`, "utf8").split("\0").join(" ");
    const nodeOptions = readFileSync(`/proc/${id}/environ`, "utf8").split("\0").find((entry) => entry.startsWith("NODE_OPTIONS=")) ?? "";
    return `${argv} ${nodeOptions}`.trim();
  });
}

async function json<T>(response: Promise<Response>): Promise<T> {
  return (await (await response).json()) as T;
}

async function hostToken(emulator: string, claims: { userId?: string; noteId?: string } = {}): Promise<string> {
  const userId = claims.userId ?? (await json<{ users: { id: string }[] }>(fetch(`${emulator}/_sandbox/ehr/${ORG_A}/users`))).users[0]?.id;
  const { token } = await json<{ token: string }>(fetch(`${emulator}/_sandbox/host-token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ organizationId: ORG_A, userId, noteId: claims.noteId }) }));
  return token;
}

/** A request on a connection of its own (fetch would reuse one it keeps open): its status, or "refused". */
function onNewConnection(port: number, path: string): Promise<number | "refused"> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: "127.0.0.1", port, path, agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on("error", (error: NodeJS.ErrnoException) => (error.code === "ECONNREFUSED" ? resolve("refused") : reject(error)));
  });
}

/** The `Keep-Alive` header of an answer on a keep-alive connection. */
function keepAliveOf(port: number, path: string): Promise<string | undefined> {
  const agent = new http.Agent({ keepAlive: true });
  return new Promise<string | undefined>((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, agent }, (response) => {
        response.resume();
        const header = response.headers["keep-alive"];
        resolve(Array.isArray(header) ? header.join(", ") : header);
      })
      .on("error", reject);
  }).finally(() => agent.destroy());
}

describe("npm start (compiled, plain node)", () => {
  it("sandbox: runs the compiled emulator and BFF without a loader, wires webhooks, prints the host page, is healthy and ready, serves the host page and /api, and stops both on Ctrl-C", { timeout: 120_000 }, async () => {
    const [emulatorPort, bffPort] = [await freePort(), await freePort()];
    const start = startNode([join(buildDir, "scripts/start.js")], plainEnv({ EMULATOR_PORT: String(emulatorPort), PORT: String(bffPort), DATA_DIR: join(workDir, "sandbox-pglite") }));
    await start.printed("Tandem sandbox is running");
    const emulator = `http://127.0.0.1:${emulatorPort}`;
    const bff = `http://127.0.0.1:${bffPort}`;
    expect(start.output()).toContain(`${emulator}/_sandbox/host`);
    expect(start.output()).toMatch(/\[emulator\] /);
    expect(start.output()).toMatch(/\[bff\] /);

    if (existsSync("/proc/self/cmdline") && start.child.pid !== undefined) {
      const commandLines = commandLinesOf(start.child.pid);
      expect(commandLines).toHaveLength(3);
      for (const line of commandLines) expect(line.replaceAll(workDir, "<build>")).not.toMatch(/tsx|--import|--loader|--experimental/);
      // docs/deploy.md "Memory": the BFF runs with its heap limit.
      expect(commandLines.find((line) => line.includes(join(buildDir, "server/index.js")))).toMatch(/--max-semi-space-size=4 --max-old-space-size=128 /);
      expect(commandLines.some((line) => line.includes(join(buildDir, "emulator/index.js")))).toBe(true);
    }

    expect(await json<unknown>(fetch(`${bff}/healthz`))).toMatchObject({ ok: true, store: "ready" });
    expect(await json<unknown>(fetch(`${bff}/readyz`))).toEqual({ ready: true, state: "ready", store: "ready" });
    // docs/deploy.md "Behind a TLS proxy": an idle connection outlives the proxy's own 60 s (HTTP_KEEP_ALIVE_SECONDS).
    expect(await keepAliveOf(bffPort, "/healthz")).toBe("timeout=65");
    const hostPage = await fetch(`${emulator}/_sandbox/host`);
    expect(hostPage.status).toBe(200);
    expect(await hostPage.text()).toContain(`http://localhost:${bffPort}`);
    expect((await fetch(`${emulator}/_sandbox/host.js`)).status).toBe(200);

    const webhooks = await json<{ target: { url: string } }>(fetch(`${emulator}/_sandbox/webhooks`));
    expect(webhooks.target.url).toBe(`http://localhost:${bffPort}/webhooks/clinic`);
    const session = await fetch(`${bff}/api/session`, { headers: { authorization: `Bearer ${await hostToken(emulator)}` } });
    expect(session.status).toBe(200);
    expect(((await session.json()) as { organization: { id: string } }).organization.id).toBe(ORG_A);

    // A lifecycle event travels over real HTTP, signed, to the BFF's receiver.
    await fetch(`${emulator}/_sandbox/webhooks/test`, { method: "POST" });
    for (let i = 0; ; i += 1) {
      const { attempts } = await json<{ attempts: { eventType: string; status: number | null }[] }>(fetch(`${emulator}/_sandbox/webhooks`));
      if (attempts.some((attempt) => attempt.eventType === "test.event" && attempt.status === 200)) break;
      if (i === 50) throw new Error(`test.event not delivered: ${JSON.stringify(attempts)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    start.child.kill("SIGINT");
    expect(await start.exited).toBe(0);
    expect(await onNewConnection(emulatorPort, "/healthz")).toBe("refused");
    expect(await onNewConnection(bffPort, "/healthz")).toBe("refused");
  });

  it("against a service: runs the compiled BFF alone; SIGTERM answers the note write in flight, refuses new connections, ends the live-event stream with a retry hint, exits 0", { timeout: 120_000 }, async () => {
    const [emulatorPort, proxyPort, bffPort] = [await freePort(), await freePort(), await freePort()];
    const emulator = `http://127.0.0.1:${emulatorPort}`;
    const emulatorProcess = startNode([join(buildDir, "emulator/index.js")], plainEnv({ PORT: String(emulatorPort), EMULATOR_APP_URL: `http://localhost:${bffPort}` }));
    await waitUntilHealthy(`${emulator}/healthz`, { child: emulatorProcess.child, log: emulatorProcess.output });
    const proxy = await holdingProxy(emulator, proxyPort);
    closers.push(() => proxy.server.close());

    const start = startNode(
      [join(buildDir, "scripts/start.js")],
      plainEnv({
        CLINIC_API_BASE_URL: `http://127.0.0.1:${proxyPort}`,
        CLINIC_API_KEY: DATA_KEY,
        HOST_TOKEN_ISSUER: emulator,
        HOST_TOKEN_JWKS_URL: `${emulator}/.well-known/jwks.json`,
        ALLOWED_HOST_ORIGINS: emulator,
        WEBHOOK_SECRET,
        PORT: String(bffPort),
        DATA_DIR: join(workDir, "service-pglite"),
        // Far beyond the test's own timeout: the held write is let go by the test, never by the clock.
        SHUTDOWN_GRACE_SECONDS: "600",
      }),
    );
    const bff = `http://127.0.0.1:${bffPort}`;
    await waitUntilHealthy(`${bff}/healthz`, { child: start.child, log: start.output });
    expect(start.output()).not.toContain("[emulator]");
    expect(await json<unknown>(fetch(`${bff}/readyz`))).toEqual({ ready: true, state: "ready", store: "ready" });

    const { notes } = await json<{ notes: { id: string; status: string }[] }>(fetch(`${emulator}/_sandbox/ehr/${ORG_A}/notes`));
    const { users } = await json<{ users: { id: string; roles: string[] }[] }>(fetch(`${emulator}/_sandbox/ehr/${ORG_A}/users`));
    const noteId = notes.find((note) => note.status !== "signed")?.id ?? "";
    const physicianId = users.find((user) => user.roles.includes("Physician"))?.id;

    const stream = await fetch(`${bff}/api/events`, { headers: { authorization: `Bearer ${await hostToken(emulator)}` } });
    expect(stream.status).toBe(200);
    const streamText = readStream(stream);
    await streamText.includes("event: heartbeat");
    const write = fetch(`${bff}/api/notes/${noteId}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${await hostToken(emulator, { userId: physicianId, noteId })}`, "content-type": "application/json" },
      body: JSON.stringify({ otherExamComments: "Saved while the BFF shut down" }),
    });
    await proxy.held;

    start.child.kill("SIGTERM");
    await start.printed("draining: not ready");
    expect(await onNewConnection(bffPort, "/readyz")).toBe("refused");
    const ended = await streamText.ended;
    expect(ended).toMatch(/^retry: \d+$/m);

    proxy.release();
    const answered = await write;
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as { note: { soapNote: { exam: { otherExamComments: string } } } }).note.soapNote.exam.otherExamComments).toBe("Saved while the BFF shut down");

    expect(await start.exited).toBe(0);
    expect(start.output()).toContain("drained; store closed");
    expect(start.output()).toMatch(/"clean":true,"cutOff":0/);
    emulatorProcess.child.kill("SIGTERM");
    expect(await emulatorProcess.exited).toBe(0);
  });
});

/** Reads a response body as text: resolves `includes(text)` once it has arrived, `ended` with all of it. */
function readStream(response: Response) {
  const reader: ReadableStreamDefaultReader<Uint8Array> = (response.body ?? new ReadableStream<Uint8Array>()).getReader();
  const decoder = new TextDecoder();
  let text = "";
  const waiting: { text: string; resolve: () => void }[] = [];
  const ended = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return text;
      text += decoder.decode(value, { stream: true });
      for (const waiter of waiting.filter((entry) => text.includes(entry.text))) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  })();
  return {
    ended,
    includes: (expected: string) => (text.includes(expected) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ text: expected, resolve }))),
  };
}

/** Forwards everything to `target`, but holds each note PATCH until `release`; `held` resolves when one arrives. */
async function holdingProxy(target: string, port: number) {
  let arrived: () => void = () => undefined;
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (arrived = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      void (async () => {
        if (request.method === "PATCH" && request.url?.startsWith("/v1/notes/")) {
          arrived();
          await released;
        }
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string" && name !== "host" && name !== "connection") headers[name] = value;
        const answer = await fetch(`${target}${request.url ?? "/"}`, { method: request.method, headers, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined });
        const answerHeaders: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (!["content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive"].includes(name)) answerHeaders[name] = value;
        });
        response.writeHead(answer.status, answerHeaders);
        response.end(Buffer.from(await answer.arrayBuffer()));
      })().catch(() => {
        response.writeHead(502);
        response.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  return { server, held, release: () => release() };
}
