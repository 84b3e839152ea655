import * as z from "zod/mini";
import { webhookEnvelope } from "#contract/clinic-api/events.ts";
import type { EmulatorSettings } from "../../../routes/route-deps.ts";
import { createTestEmulator, type TestEmulator } from "../../../testing/emulator-client.ts";

// Tests of the issue-9 domains: an in-process emulator whose webhook target
// is a capturing fetch, so a test sees exactly what a receiver would get.

export type Envelope = z.infer<typeof webhookEnvelope>;

export interface CapturingEmulator {
  test: TestEmulator;
  /** Waits for delivery to settle, then returns (and forgets) what arrived since the last call. */
  delivered: () => Promise<Envelope[]>;
  /** Raw bodies as sent, for checks on what is never sent. */
  rawBodies: string[];
  advance: (seconds: number) => void;
}

/** Background syncs are pushed out of the way (an hour) so each test decides when a sync runs. */
export function createCapturingEmulator(settings: Partial<EmulatorSettings> = {}): CapturingEmulator {
  const arrived: Envelope[] = [];
  const rawBodies: string[] = [];
  const fetch: typeof globalThis.fetch = (_url, init) => {
    const body = typeof init?.body === "string" ? init.body : "";
    rawBodies.push(body);
    arrived.push(z.parse(webhookEnvelope, JSON.parse(body)));
    return Promise.resolve(new Response(null, { status: 204 }));
  };
  const test = createTestEmulator({ fetch, settings: { strongReadLatencyMs: 0, syncIntervalSeconds: 3600, ...settings } });
  test.emulator.dispatcher.configure({ url: "http://127.0.0.1:9/webhooks/clinic", headerStyle: "standard" });
  return {
    test,
    rawBodies,
    delivered: async () => {
      await test.emulator.dispatcher.idle();
      return arrived.splice(0);
    },
    advance: (seconds) => test.emulator.clock.set({ advanceSeconds: seconds }),
  };
}
