// A burst of one failure (a rate limit refusing 2,000 requests) is one story,
// not 2,000 log lines: the first warning of a kind is written at once; the
// same warning again within the window is counted, and one line says how
// many there were when the window closes. Kinds are told apart by message.

export interface RepeatedWarningsOptions {
  windowMs: number;
  /** Writes a line at warning level. */
  write: (fields: object, message: string) => void;
  setTimer?: (callback: () => void, ms: number) => { unref?: () => void };
  /** Kinds tracked at once; a flood of distinct messages is written as it comes. */
  maxKinds?: number;
}

export interface RepeatedWarnings {
  /** False when the warning was counted instead of written. */
  offer(message: string): boolean;
}

const DEFAULT_MAX_KINDS = 1000;

export function createRepeatedWarnings(options: RepeatedWarningsOptions): RepeatedWarnings {
  const setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
  const maxKinds = options.maxKinds ?? DEFAULT_MAX_KINDS;
  // Message → warnings counted (not written) since the window opened.
  const open = new Map<string, number>();
  return {
    offer(message) {
      const counted = open.get(message);
      if (counted !== undefined) {
        open.set(message, counted + 1);
        return false;
      }
      if (open.size >= maxKinds) return true;
      open.set(message, 0);
      setTimer(() => {
        const repeats = open.get(message) ?? 0;
        open.delete(message);
        if (repeats > 0) options.write({ repeated: repeats, windowMs: options.windowMs }, `${message} (repeated ${repeats} more times in ${options.windowMs / 1000} s)`);
      }, options.windowMs).unref?.();
      return true;
    },
  };
}
