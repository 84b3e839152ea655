// ADR 0017's rule, on counts alone, so one process or many apply the same
// one (ADR 0026), over the sends in the window:
//
// - `reserve` is kept for organizations that have sent nothing yet. The rest
//   is split evenly among the active organizations (a send in the window or
//   a request waiting): each one's fair share is `(limit − reserve) / active`.
// - Below its fair share, an organization sends whenever the window has room.
// - At or above it, it borrows: it sends only if the window keeps room for
//   the reserve and, for every other active organization below its fair
//   share, a cushion of as much again as that organization sent in the window
//   (never more than the rest of its share). A busy organization thus takes
//   only what the others leave unused, never what they are using.

export interface WindowUse {
  /** Sends in the window per organization. */
  sent: ReadonlyMap<string, number>;
  /** Organizations with a request waiting (in this process). */
  waiting: ReadonlySet<string>;
  /** The budget now: the limit less others' use the service told of. */
  limit: number;
  /** The reserve, shrunk in proportion to `limit`. */
  reserve: number;
}

/** The fair share of each active organization, `candidate` counted as active. */
export function fairShare(use: WindowUse, candidate: string): number {
  const active = new Set([...use.sent.keys(), ...use.waiting, candidate]).size;
  return Math.max(1, Math.floor((use.limit - use.reserve) / active));
}

/** How many more sends `candidate` may make now by the rule above. */
export function roomFor(use: WindowUse, candidate: string): number {
  let free = use.limit;
  for (const count of use.sent.values()) free -= count;
  if (free <= 0) return 0;
  const share = fairShare(use, candidate);
  const belowShare = Math.min(Math.max(0, share - (use.sent.get(candidate) ?? 0)), free);
  let cushions = 0;
  for (const [organization, sent] of use.sent) if (organization !== candidate && sent < share) cushions += Math.min(sent, share - sent);
  return belowShare + Math.max(0, free - belowShare - use.reserve - cushions);
}
