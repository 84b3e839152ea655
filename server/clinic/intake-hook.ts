import type { BenchSwitches } from "./bench-switches.ts";
import type { ClinicClientOptions } from "./clinic-client.ts";
import { takeIn } from "./answer-intake.ts";
import { IntakeThread, IntakeThreadError } from "./intake-thread.ts";
import type { Intake } from "./response-reader.ts";
import { UpstreamError } from "./upstream-error.ts";

// Where a shared answer is taken in: on the event loop, or with the intake
// thread on, answers of at least `minBytes` on the worker thread
// (intake-thread.ts). Refreshes ahead share it with users' reads: a thread
// of their own at nice 10 earned nothing measurable (ADR 0029 addendum).

export type IntakeWorker = Pick<IntakeThread, "takeIn" | "close">;

/** Intake costs about 16 µs per KB: smaller answers are not worth the copy to the thread and back. */
const INTAKE_THREAD_MIN_BYTES = 64 * 1024;

const utf8Decoder = new TextDecoder();
const takeInHere: Intake = (route, body) => Promise.resolve(takeIn(route, utf8Decoder.decode(body)));

/** `intakeThread`: `true`, a thread of its own; a thread given (tests); false or absent, the event loop only. */
export function createIntake(
  { intakeThread, intakeThreadMinBytes }: Pick<ClinicClientOptions, "intakeThread" | "intakeThreadMinBytes">,
  switches: BenchSwitches,
  counters: { intakeFailures: number; intakeTimeouts: number },
  logError: (obj: object, msg: string) => void,
): { takeIn: Intake; close(): void } {
  const option = switches.isOn("intake-thread") ? intakeThread : false;
  const thread = option === true ? new IntakeThread() : option || null;
  const minBytes = intakeThreadMinBytes ?? INTAKE_THREAD_MIN_BYTES;
  // An answer the thread could not take in is not taken in on the event loop
  // instead: one too large for the thread's heap would take the whole process
  // down with it (issue 34). The read fails, logged and counted.
  const takeInOnThread = async (worker: IntakeWorker, route: Parameters<Intake>[0], body: Uint8Array<ArrayBuffer>) => {
    const bytes = body.byteLength;
    switches.used("intake-thread");
    try {
      return await worker.takeIn(route, body);
    } catch (error) {
      const reason = error instanceof IntakeThreadError ? error.reason : "failed";
      if (reason === "timeout") counters.intakeTimeouts += 1;
      else counters.intakeFailures += 1;
      logError({ route, bytes, reason, err: error }, "clinic: the intake thread could not take in an answer; it is not taken in on the event loop");
      const what = reason === "timeout" ? "in time" : `(${Math.ceil(bytes / 1024)} KB)`;
      throw new UpstreamError({ status: 503, code: "intake_failed", message: `Tandem could not read the Clinic Data Service's answer ${what}: try again, or ask for less` });
    }
  };
  return {
    takeIn: thread ? (route, body) => (body.byteLength < minBytes ? takeInHere(route, body) : takeInOnThread(thread, route, body)) : takeInHere,
    close: () => thread?.close(),
  };
}
