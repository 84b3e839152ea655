import type { SlotSearchResponse } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";

// What the page and the slot search worker (slot-search-reads.ts) say to
// each other: one read asked for, or given up; its answer as runs of slots
// and then the rest, a refusal's status and body, or why there was none.

/** Slots in one message: about 0.5 MB, a few ms for the page to take in. */
export const SLOTS_PER_MESSAGE = 2_000;

export type ToReader = { id: number; kind: "read"; path: string; headers: Record<string, string> } | { id: number; kind: "abandon" };

export type FromReader =
  | { id: number; kind: "slots"; slots: Slot[] }
  | { id: number; kind: "answered"; status: number; rest: Omit<SlotSearchResponse, "slots"> }
  | { id: number; kind: "refused"; status: number; body: string }
  | { id: number; kind: "unexpected"; status: number }
  | { id: number; kind: "unreachable"; message: string };
