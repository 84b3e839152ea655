import type { WaitlistEntry } from "#contract/app-api/waitlist.ts";

/**
 * The entries to show: those waiting, in the list's order, and each entry
 * being edited that no longer waits (`gone`), as its form started from it,
 * placed by when it was added among the others (longest waiting first).
 */
export function withEntriesBeingEdited(waiting: readonly WaitlistEntry[], edits: ReadonlyMap<string, WaitlistEntry>): { entry: WaitlistEntry; gone: boolean }[] {
  const shown = waiting.map((entry) => ({ entry, gone: false }));
  const waitingIds = new Set(waiting.map((entry) => entry.id));
  for (const entry of edits.values()) {
    if (waitingIds.has(entry.id)) continue;
    const after = shown.findIndex((candidate) => Date.parse(candidate.entry.createdAt) > Date.parse(entry.createdAt));
    shown.splice(after === -1 ? shown.length : after, 0, { entry, gone: true });
  }
  return shown;
}
