import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { programArgs } from "../scripts/programs.ts";
import { freePort } from "../scripts/testing/free-port.ts";
import { waitUntilHealthy } from "../scripts/wait-until-healthy.ts";
import { createStore } from "../server/store/create-store.ts";
import { percentile, round } from "./measure.ts";
import { NOTE_BENCH_BFF_ENV, ORG_ID, json, largestNote } from "./sandbox-notes.ts";

// Issue 35 item 5's check, against the compiled BFF (`npm run build:server`
// first) on the embedded store: the note read's latency alone (p50/p95), then
// four readers reading the note and the patient banner for 3 s, then kill -9
// of the BFF; every read answered 200 must have its audit row in the store
// the dead process leaves behind. Run: `npx tsx bench/audit-kill.ts`.

const READERS = 4;
const READ_FOR_MS = 3_000;
const SOLO_READS = 200;

function startChild(program: "emulator" | "server", env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, programArgs(program, "compiled"), { env, stdio: ["ignore", "ignore", "inherit"] });
}

export async function runAuditKill(): Promise<Record<string, unknown>> {
  const [emulatorPort, bffPort] = [await freePort(), await freePort()];
  const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
  const appUrl = `http://localhost:${bffPort}`;
  const dataDir = join(mkdtempSync(join(tmpdir(), "tandem-audit-kill-")), "pglite");
  const base: NodeJS.ProcessEnv = { ...process.env };
  delete base.CLINIC_API_BASE_URL;
  delete base.DATABASE_URL;
  const emulator = startChild("emulator", { ...base, PORT: String(emulatorPort), EMULATOR_APP_URL: appUrl, EMULATOR_CLOCK_START: new Date().toISOString() });
  let bff: ChildProcess | undefined;
  try {
    await waitUntilHealthy(`${emulatorUrl}/healthz`, { child: emulator });
    bff = startChild("server", { ...base, PORT: String(bffPort), SANDBOX_EMULATOR_URL: emulatorUrl, SANDBOX_CLOCK: "emulator", DATA_DIR: dataDir, LOG_LEVEL: "warn", ...NOTE_BENCH_BFF_ENV });
    await waitUntilHealthy(`${appUrl}/healthz`, { child: bff });
    const { note, userId } = await largestNote(emulatorUrl);
    const tokenOf = async () =>
      (
        await json<{ token: string }>(`${emulatorUrl}/_sandbox/host-token`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ organizationId: ORG_ID, userId, noteId: note.id, patientId: note.patientId }),
        })
      ).token;
    const read = async (token: string, path: string): Promise<number> => {
      const response = await fetch(`${appUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
      await response.arrayBuffer();
      return response.status;
    };
    const notePath = `/api/notes/${note.id}`;

    const solo: number[] = [];
    const soloToken = await tokenOf();
    for (let i = 0; i < SOLO_READS + 10; i += 1) {
      const start = performance.now();
      if ((await read(soloToken, notePath)) !== 200) throw new Error("the note read failed");
      if (i >= 10) solo.push(performance.now() - start);
    }

    // Counted from here: the rows before belong to the solo reads.
    const answered = { note: 0, patient: 0 };
    const concurrent: number[] = [];
    const until = performance.now() + READ_FOR_MS;
    const reader = async () => {
      const token = await tokenOf();
      while (performance.now() < until) {
        const start = performance.now();
        if ((await read(token, notePath).catch(() => 0)) === 200) {
          answered.note += 1;
          concurrent.push(performance.now() - start);
        }
        if ((await read(token, "/api/context/patient").catch(() => 0)) === 200) answered.patient += 1;
      }
    };
    await Promise.all(Array.from({ length: READERS }, reader));
    bff.kill("SIGKILL");
    await new Promise((resolve) => bff?.once("exit", resolve));

    const store = await createStore({ dataDir });
    try {
      const rows = await store.audit.list(ORG_ID);
      const ms = (samples: number[]) => {
        const sorted = [...samples].sort((a, b) => a - b);
        return { p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), n: sorted.length };
      };
      const audited = (resourceType: string) => rows.filter((row) => row.action === "read" && row.resourceType === resourceType).length;
      return {
        bench: "audit before PHI: note read alone, then 4 readers for 3 s and kill -9 (compiled BFF, embedded store)",
        noteReadAloneMs: ms(solo),
        noteReadUnder4ReadersMs: ms(concurrent),
        notesAnswered200: answered.note + SOLO_READS + 10,
        noteReadsAudited: audited("note"),
        bannersAnswered200: answered.patient,
        bannerReadsAudited: audited("patient"),
      };
    } finally {
      await store.close();
    }
  } finally {
    if (bff && bff.exitCode === null && bff.signalCode === null) bff.kill("SIGKILL");
    emulator.kill("SIGTERM");
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await runAuditKill(), null, 2));
}
