import { Semaphore } from "async-mutex";
import { MAX_SLOT_SEARCH_FACILITY_DAYS } from "#contract/app-api/slots.ts";

// Slot searches this process asks the service for at once, weighed by their
// scope in facility-days: at most two of the widest the contract allows, or
// as many smaller ones as weigh the same (issue 34 item 1). An answer grows
// with its scope (47-65 KB per facility-day at the large scale) and is held
// whole from its arrival until the intake thread, one answer at a time, has
// taken it in: 20 of the widest at once held about 160 MB of answers, and
// the process's RSS reached 372 MB. A search past the gate waits its turn
// before asking, so what waits costs nothing; answers from the cache never
// pass through it. First come, first served.

/** Two of the widest searches (MAX_SLOT_SEARCH_FACILITY_DAYS each) at once. */
export const SLOT_SEARCH_GATE_FACILITY_DAYS = 2 * MAX_SLOT_SEARCH_FACILITY_DAYS;

export interface SlotSearchGate {
  /** Runs `read` once `facilityDays` of the gate are free, and frees them when it settles. */
  run<T>(facilityDays: number, read: () => Promise<T>): Promise<T>;
}

export function createSlotSearchGate(capacity = SLOT_SEARCH_GATE_FACILITY_DAYS): SlotSearchGate {
  const semaphore = new Semaphore(capacity);
  return {
    run: (facilityDays, read) => semaphore.runExclusive(read, Math.min(capacity, Math.max(1, Math.ceil(facilityDays)))),
  };
}
