// What must reach the BFF before a sign-out ends the session (standalone
// sign-in, ADR 0015): text typed but not yet stored as a draft. Once the
// session is gone nothing can be stored for the user, and the draft the
// editor sends as it closes is refused; each editor registers how to store
// its text now, and Sign out waits for them (bounded, so a BFF that does not
// answer never keeps anyone signed in).

type PendingWrite = () => Promise<void>;

const pending = new Set<PendingWrite>();

/** Registers a write to finish before signing out; answers the function that removes it. */
export function finishBeforeSignOut(write: PendingWrite): () => void {
  pending.add(write);
  return () => {
    pending.delete(write);
  };
}

/** Runs every registered write and waits until all have settled, or `timeoutMs` has passed. */
export async function finishPendingWrites(timeoutMs = 5_000): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  await Promise.race([Promise.allSettled([...pending].map((write) => write())), timeout]);
  clearTimeout(timer);
}

// Text typed in a form and not yet sent anywhere (a task not yet created, a
// waitlist entry not yet added): it cannot reach the BFF before a sign-out,
// and a sign-out removes everything the tab keeps (kept-drafts.ts), so Sign
// out asks before discarding it.

const unsent = new Set<{ what: string }>();

/** Marks `what` (e.g. "a task not yet created") as typed and not sent; answers the function that unmarks it. */
export function markUnsentUntilSignOut(what: string): () => void {
  const entry = { what };
  unsent.add(entry);
  return () => {
    unsent.delete(entry);
  };
}

/** What would be lost by signing out now, once each. */
export function unsentTexts(): string[] {
  return [...new Set([...unsent].map((entry) => entry.what))];
}
