import { readlinkSync } from "node:fs";
import { constants, setPriority } from "node:os";

// Linux keeps a nice value per thread, so a worker thread can yield the CPU
// to its process's event loop: when the cores are busy, the requests the main
// thread answers from the cache go first, and the work of the thread (taking
// in a large answer, tens of milliseconds) waits. Elsewhere (no
// `/proc/thread-self`) the thread keeps its priority.

/** Lowers the calling thread's CPU priority (nice 10); false where the platform cannot. */
export function lowerThisThreadPriority(): boolean {
  if (process.platform !== "linux") return false;
  try {
    // "<pid>/task/<tid>": the kernel's id of this thread.
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").at(-1));
    if (!Number.isInteger(threadId) || threadId <= 0) return false;
    setPriority(threadId, constants.priority.PRIORITY_BELOW_NORMAL);
    return true;
  } catch {
    return false;
  }
}
