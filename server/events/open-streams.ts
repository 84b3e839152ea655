// The live-event streams (`GET /api/events`) this process has open, so a
// shutdown ends each with an SSE `retry:` hint instead of cutting it: the
// client reconnects after that delay, through the proxy, to another process.

/** Ends one stream after telling its client to reconnect in `retryMs`. */
export type StreamCloser = (retryMs: number) => Promise<void>;

export class OpenStreams {
  private readonly closers = new Set<StreamCloser>();
  private closingWith: number | null = null;

  /**
   * @param random Spreads the hints over [base, 2 × base), so the clients of a
   *   process that shuts down do not all reconnect in the same instant.
   */
  constructor(private readonly random: () => number = Math.random) {}

  get size(): number {
    return this.closers.size;
  }

  /** Registers an open stream; returns its removal. A stream opened while closing is closed at once. */
  add(close: StreamCloser): () => void {
    if (this.closingWith !== null) {
      void close(this.hint(this.closingWith));
      return () => undefined;
    }
    this.closers.add(close);
    return () => this.closers.delete(close);
  }

  /** Ends every open stream (and any opened later); resolves once each has been told and ended. */
  async closeAll(baseRetryMs: number): Promise<void> {
    this.closingWith = baseRetryMs;
    const closing = [...this.closers].map((close) => close(this.hint(baseRetryMs)));
    this.closers.clear();
    await Promise.allSettled(closing);
  }

  private hint(baseRetryMs: number): number {
    return Math.round(baseRetryMs * (1 + this.random()));
  }
}
