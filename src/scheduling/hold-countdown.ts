import type { Hold } from "#contract/clinic-api/schedule.ts";

// The hold's expiry as the user sees it: mm:ss counting down every second,
// and a screen-reader announcement only at one minute left and at expiry (a
// live region that changed every second would talk over the phone call).

/**
 * When the hold expires on this browser's clock. `expiresAt` is stamped by
 * the service's clock; when the hold also says when it was created, its
 * lifetime is counted from when this browser sent the request, so a service
 * clock that is off from the browser's does not make the countdown wrong
 * (and the count errs early, never late). Otherwise `expiresAt` as given.
 */
export function holdDeadlineMs(hold: Pick<Hold, "expiresAt"> & { createdAt?: unknown }, requestSentAtMs: number): number {
  const expiresAtMs = Date.parse(hold.expiresAt);
  const createdAtMs = typeof hold.createdAt === "string" ? Date.parse(hold.createdAt) : Number.NaN;
  if (Number.isFinite(createdAtMs) && createdAtMs <= expiresAtMs) return requestSentAtMs + (expiresAtMs - createdAtMs);
  return expiresAtMs;
}

/** "04:59"; whole seconds rounded up, so "00:00" means expired; minutes may pass 59 ("75:00"). */
export function formatCountdown(msLeft: number): string {
  const seconds = Math.max(0, Math.ceil(msLeft / 1000));
  const minutes = Math.floor(seconds / 60);
  return `${String(minutes).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
}

export type HoldStage = "running" | "lastMinute" | "expired";

export function holdStage(msLeft: number): HoldStage {
  if (msLeft <= 0) return "expired";
  if (msLeft <= 60_000) return "lastMinute";
  return "running";
}

/** What the polite live region says; it changes only when the stage does, so it is announced twice at most. */
export function holdAnnouncement(stage: HoldStage, slotPhrase: string): string {
  switch (stage) {
    case "running":
      return `Held: ${slotPhrase}. Book it in the EHR before the hold runs out.`;
    case "lastMinute":
      return `Less than one minute left on the hold for ${slotPhrase}.`;
    case "expired":
      return `The hold for ${slotPhrase} has expired.`;
  }
}
