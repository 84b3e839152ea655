import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIVE_EVENT_NAME } from "#contract/app-api/live-events.ts";
import { ORG_A_ID } from "../../emulator/world/identities.ts";
import { freePort } from "../../scripts/testing/free-port.ts";
import { waitUntilHealthy } from "../../scripts/wait-until-healthy.ts";
import { dropSchema } from "../store/testing/drop-schema.ts";

// Two REAL BFF processes (`server/index.ts`, as `npm start` runs it) on one
// PostgreSQL schema, behind a plain round-robin proxy that the emulator
// delivers duplicated and shuffled webhooks to: each hook-id is processed
// once, and a live-event stream on either process sees every change.
// Skipped without DATABASE_URL (CI sets it).

const databaseUrl = process.env.DATABASE_URL;
const DATA_KEY = "svc_dev_ak_5a0d1e2f3a4b5c6d7e8f90a1b2c3d4e5";
const schema = `tandem_real_${randomBytes(4).toString("hex")}`;

interface Started {
  child: ChildProcess;
  url: string;
  log: () => string;
}

function start(script: string, port: number, env: Record<string, string>): Started {
  let output = "";
  const base: NodeJS.ProcessEnv = { ...process.env };
  delete base.CLINIC_API_BASE_URL;
  // These processes share their budget through DATABASE_URL's PostgreSQL; Redis has shared-budget.test.ts.
  delete base.REDIS_URL;
  const child = spawn(process.execPath, ["--import", "tsx", script], { env: { ...base, PORT: String(port), ...env }, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, url: `http://127.0.0.1:${port}`, log: () => output.slice(-3000) };
}

/** Forwards each request to the next target in turn. */
function roundRobin(targets: string[], port: number): Promise<http.Server> {
  let next = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const target = targets[next++ % targets.length] ?? "";
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string" && name !== "host") headers[name] = value;
      fetch(`${target}${request.url ?? "/"}`, { method: request.method, headers, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined })
        .then(async (answer) => {
          response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
          response.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(() => {
          response.writeHead(502);
          response.end();
        });
    });
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

async function sandbox(emulatorUrl: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${emulatorUrl}/_sandbox${path}`, { method, headers: body === undefined ? {} : { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/**
 * Reads a live-event stream in the background: the org's events as they
 * arrive, and `ready`, once the stream's first frame (the heartbeat the BFF
 * writes after subscribing) came, so nothing published later is missed.
 */
function listen(bffUrl: string, token: string, signal: AbortSignal): { events: string[]; ready: Promise<void> } {
  const events: string[] = [];
  let opened: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    opened = resolve;
  });
  void (async () => {
    const response = await fetch(`${bffUrl}/api/events`, { headers: { authorization: `Bearer ${token}` }, signal });
    if (!response.body) return;
    const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      opened();
      buffer += decoder.decode(value, { stream: true });
      const frames = buffer.split("\n\n");
      buffer = frames.pop() ?? "";
      for (const frame of frames) {
        if (!frame.includes(`event: ${LIVE_EVENT_NAME}`)) continue;
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (data) events.push(data);
      }
    }
  })().catch(() => undefined);
  return { events, ready };
}

describe.skipIf(!databaseUrl)("two real BFF processes on one PostgreSQL schema", () => {
  let emulator: Started;
  const bffs: Started[] = [];
  let proxy: http.Server | undefined;
  const streams = new AbortController();

  beforeAll(async () => {
    const [emulatorPort, portA, portB, proxyPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
    emulator = start("emulator/index.ts", emulatorPort, { EMULATOR_SYNC_INTERVAL_SECONDS: "3600" });
    await waitUntilHealthy(`${emulator.url}/healthz`, emulator);
    const bffEnv = { SANDBOX_EMULATOR_URL: emulator.url, DATABASE_URL: databaseUrl ?? "", DATABASE_SCHEMA: schema, LOG_LEVEL: "warn" };
    // One after the other: the first applies the migrations to the new schema.
    for (const port of [portA, portB]) {
      const bff = start("server/index.ts", port, bffEnv);
      bffs.push(bff);
      await waitUntilHealthy(`${bff.url}/healthz`, bff);
    }
    proxy = await roundRobin(
      bffs.map((bff) => bff.url),
      proxyPort,
    );
    await sandbox(emulator.url, "POST", "/webhooks", { url: `http://127.0.0.1:${proxyPort}/webhooks/clinic`, headerStyle: "standard", duplicate: true, shuffle: true, retrySchedule: [0.2, 0.5] });
  }, 120_000);

  afterAll(async () => {
    streams.abort();
    proxy?.close();
    for (const started of [...bffs, emulator]) started.child.kill("SIGTERM");
    if (databaseUrl !== undefined) await dropSchema(databaseUrl, schema);
  });

  it("processes each delivered event once, and both processes' streams see every change", async () => {
    const users = (await sandbox(emulator.url, "GET", `/ehr/${ORG_A_ID}/users`)) as { users: { id: string; roles: string[] }[] };
    const userId = users.users.find((user) => user.roles.includes("Front Desk"))?.id ?? "";
    const tokens = await Promise.all(bffs.map(async () => ((await sandbox(emulator.url, "POST", "/host-token", { organizationId: ORG_A_ID, userId })) as { token: string }).token));
    const streamsOpen = bffs.map((bff, index) => listen(bff.url, tokens[index] ?? "", streams.signal));
    // Both streams subscribed before the first change (ADR 0011: an event, not a pause).
    await Promise.all(streamsOpen.map((stream) => stream.ready));
    const seen = streamsOpen.map((stream) => stream.events);

    const facilities = (await (await fetch(`${emulator.url}/v1/facilities`, { headers: { authorization: `Bearer ${DATA_KEY}`, "x-organization-id": ORG_A_ID } })).json()) as { data: { facilities: { id: string; name: string }[] } };
    const facility = facilities.data.facilities[0];
    if (!facility) throw new Error("no facility");
    for (const round of [1, 2, 3]) {
      await sandbox(emulator.url, "PATCH", `/ehr/${ORG_A_ID}/facilities/${facility.id}`, { name: `${facility.name} (renamed ${round})` });
      await sandbox(emulator.url, "POST", "/sync", { organizationId: ORG_A_ID });
    }

    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await expect
        .poll(
          async () => {
            const { rows } = await client.query<{ processed: string; total: string }>(`SELECT count(*) FILTER (WHERE processed_at IS NOT NULL) AS processed, count(*) AS total FROM "${schema}".webhook_inbox WHERE event_type = 'facility.updated'`);
            return rows[0];
          },
          { timeout: 20_000 },
        )
        .toEqual({ processed: "3", total: "3" });
      const { rows } = await client.query<{ attempts: number }>(`SELECT attempts FROM "${schema}".webhook_inbox WHERE event_type = 'facility.updated'`);
      expect(rows.map((row) => row.attempts)).toEqual([1, 1, 1]);
    } finally {
      await client.end();
    }
    for (const events of seen) {
      await expect.poll(() => events.filter((event) => event.includes('"directory.changed"')).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    }
  }, 60_000);
});
