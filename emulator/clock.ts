// The emulator's clock (DESIGN.md "Details that tests rely on"): it drives
// everything the emulator stamps. `now` without `frozen` keeps it running
// from there; `frozen` stops it; `advanceSeconds` moves it either way.

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export interface ClockSettings {
  now?: string | number;
  frozen?: boolean;
  advanceSeconds?: number;
}

export class EmulatorClock implements Clock {
  /** Emulated time = real time + offset while running; `frozenAt` while frozen. */
  private offsetMs: number;
  private frozenAt: number | null;
  private readonly initial: { offsetMs: number; frozenAt: number | null };

  constructor(
    start: number = Date.now(),
    frozen = false,
    private readonly realNow: () => number = Date.now,
  ) {
    this.offsetMs = start - realNow();
    this.frozenAt = frozen ? start : null;
    this.initial = { offsetMs: this.offsetMs, frozenAt: this.frozenAt };
  }

  now(): number {
    return this.frozenAt ?? this.realNow() + this.offsetMs;
  }

  isFrozen(): boolean {
    return this.frozenAt !== null;
  }

  set(settings: ClockSettings): void {
    let target = this.now();
    if (settings.now !== undefined) target = typeof settings.now === "number" ? settings.now : Date.parse(settings.now);
    if (settings.advanceSeconds !== undefined) target += settings.advanceSeconds * 1000;
    // `now` without `frozen` keeps the clock running from there (DESIGN.md).
    const frozen = settings.frozen ?? (settings.now !== undefined ? false : this.isFrozen());
    this.offsetMs = target - this.realNow();
    this.frozenAt = frozen ? target : null;
  }

  reset(): void {
    this.offsetMs = this.initial.offsetMs;
    this.frozenAt = this.initial.frozenAt;
  }
}
