import { Worker } from "node:worker_threads";
import type { Answer } from "./app-client.ts";

// A front desk's pick of a slot to hold, from a slot search's answer: the
// answer unzipped and parsed (up to 3 MB of JSON for a large group, tens of
// milliseconds) on a thread of its own, so that the load generator's one
// thread, which times every answer in flight, is not stalled by it (as a
// browser's page is not stalled by another user's machine).

export interface PickedSlot {
  providerId: string;
  facilityId: string;
  startsAt: string;
  endsAt: string;
}

// Plain JavaScript with Node's built-ins only, so the thread needs no TypeScript loader.
const PICKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { gunzipSync } = require("node:zlib");
parentPort.on("message", ({ id, bytes, isGzip, fraction }) => {
  let picked = null;
  try {
    const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const slots = JSON.parse((isGzip ? gunzipSync(body) : body).toString()).slots;
    const open = Array.isArray(slots) ? slots.filter((slot) => Number(slot.remainingCapacity) > 0) : [];
    const slot = open[Math.floor(fraction * open.length)];
    if (slot) picked = { providerId: String(slot.providerId), facilityId: String(slot.facilityId), startsAt: String(slot.startsAt), endsAt: String(slot.endsAt) };
  } catch {}
  parentPort.postMessage({ id, picked });
});
`;

export class SlotPicker {
  private readonly worker = new Worker(PICKER_SOURCE, { eval: true });
  private readonly waiting = new Map<number, (picked: PickedSlot | null) => void>();
  private nextId = 0;

  constructor() {
    this.worker.on("message", ({ id, picked }: { id: number; picked: PickedSlot | null }) => {
      this.waiting.get(id)?.(picked);
      this.waiting.delete(id);
    });
    this.worker.on("error", () => {
      for (const resolve of this.waiting.values()) resolve(null);
      this.waiting.clear();
    });
    this.worker.unref();
  }

  /** The slot with capacity at `fraction` (0 to 1) of the answer's list of them; null when it lists none. */
  pick(answer: Answer, fraction: number): Promise<PickedSlot | null> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage({ id, bytes: answer.bytes, isGzip: answer.isGzip, fraction });
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
