import { isRevoked, type LiveStreamOwner, type StreamRevocation } from "./stream-revocation.ts";

// The live-event streams (`GET /api/events`) this process has open, with
// whose each is: a revoked session or access ends its streams at once
// (stream-revocation.ts), and a shutdown ends each with an SSE `retry:` hint
// instead of cutting it: the client reconnects after that delay, through the
// proxy, to another process.

/** Ends one stream; with `retryMs`, after telling its client to reconnect in that long. */
export type StreamCloser = (retryMs: number | null) => Promise<void>;

export class OpenStreams {
  private readonly open = new Map<StreamCloser, LiveStreamOwner>();
  private closingWith: number | null = null;

  /**
   * @param random Spreads the hints over [base, 2 × base), so the clients of a
   *   process that shuts down do not all reconnect in the same instant.
   */
  constructor(private readonly random: () => number = Math.random) {}

  get size(): number {
    return this.open.size;
  }

  /** Registers an open stream; returns its removal. A stream opened while closing is closed at once. */
  add(owner: LiveStreamOwner, close: StreamCloser): () => void {
    if (this.closingWith !== null) {
      close(this.hint(this.closingWith)).catch(() => undefined);
      return () => undefined;
    }
    this.open.set(close, owner);
    return () => this.open.delete(close);
  }

  /** Ends every stream the revocation names, without a reconnection hint; answers how many. */
  revoke(revocation: StreamRevocation): number {
    let ended = 0;
    for (const [close, owner] of this.open) {
      if (!isRevoked(owner, revocation)) continue;
      this.open.delete(close);
      close(null).catch(() => undefined);
      ended += 1;
    }
    return ended;
  }

  /** Ends every open stream with a reconnection hint, and lets new ones open: a revocation may have been missed. */
  async reopenAll(baseRetryMs: number): Promise<void> {
    const closing = [...this.open.keys()].map((close) => close(this.hint(baseRetryMs)));
    this.open.clear();
    await Promise.allSettled(closing);
  }

  /** Ends every open stream (and any opened later); resolves once each has been told and ended. */
  async closeAll(baseRetryMs: number): Promise<void> {
    this.closingWith = baseRetryMs;
    const closing = [...this.open.keys()].map((close) => close(this.hint(baseRetryMs)));
    this.open.clear();
    await Promise.allSettled(closing);
  }

  private hint(baseRetryMs: number): number {
    return Math.round(baseRetryMs * (1 + this.random()));
  }
}
