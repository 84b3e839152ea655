import * as z from "zod/mini";
import { appErrorBody, type AppErrorBody } from "#contract/app-api/errors.ts";
import { liveEvent, type LiveEvent } from "#contract/app-api/live-events.ts";
import { HARNESS_NOW, type BffHarness } from "../../testing/bff-harness.ts";

// What the fault matrix (docs/fault-matrix.md) reads its answers with, on top
// of the BFF harness (`server/testing/bff-harness.ts`): error bodies, the live
// stream, the seed's search window and target.

/** The BFF's error body, parsed with the app contract; the raw text too, for leak checks. */
export async function errorOf(response: Response): Promise<AppErrorBody & { text: string }> {
  const text = await response.text();
  return { ...z.parse(appErrorBody, JSON.parse(text)), text };
}

/** An open `GET /api/events` stream, read frame by frame. */
export interface LiveStream {
  /** The next `tandem` event, or null when the stream ended. */
  next(): Promise<LiveEvent | null>;
  cancel(): Promise<void>;
}

export async function openLiveStream(harness: BffHarness, token: string): Promise<LiveStream> {
  const response = await harness.api("/api/events", { token });
  if (response.status !== 200 || !response.body) throw new Error(`events answered ${response.status}`);
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return {
    async next() {
      for (;;) {
        const match = /event: tandem\ndata: (.*)\n\n/.exec(buffer);
        if (match?.[1] !== undefined) {
          buffer = buffer.slice(match.index + match[0].length);
          return z.parse(liveEvent, JSON.parse(match[1]));
        }
        const { value, done } = await reader.read();
        if (done) return null;
        buffer += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  };
}

/** Local dates from the day after the harness's pinned instant for `days` days (UTC dates; the facilities are in the Americas). */
export function dateWindow(days = 7, from = HARNESS_NOW): { startDate: string; endDate: string } {
  const day = 86_400_000;
  return { startDate: new Date(from + day).toISOString().slice(0, 10), endDate: new Date(from + days * day).toISOString().slice(0, 10) };
}

/** A follow-up appointment type and a visible facility of the seed: what the slot searches of the matrix ask for. */
export async function seededSearchTarget(harness: BffHarness): Promise<{ typeId: string; facilityId: string }> {
  const { appointmentTypes } = await harness.emulator.get("GET /v3/appointment-types");
  const { facilities } = await harness.emulator.get("GET /v1/facilities");
  const type = appointmentTypes.find((candidate) => candidate.abbreviation === "FU") ?? appointmentTypes[0];
  const facility = facilities.find((candidate) => candidate.isVisible);
  if (!type || !facility) throw new Error("no appointment type or facility in the seed");
  return { typeId: type.id, facilityId: facility.id };
}
