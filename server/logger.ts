import pino, { type DestinationStream, type Logger } from "pino";
import { currentTraceId } from "./http/request-trace.ts";
import { createRepeatedWarnings } from "./repeated-warnings.ts";

// pino with redaction. Besides the usual header paths, every written line is
// scrubbed of the configured secrets (the data key, the webhook secrets), so
// neither can reach a log whatever object carries it. Repeats of a warning
// within a window are counted, not written (server/repeated-warnings.ts).
// A line written while a request is served carries its `traceId`, whichever
// module writes it (server/http/request-trace.ts).

export type { Logger };

/** How long repeats of one warning are counted before one line says how many there were. */
export const REPEATED_WARNING_WINDOW_MS = 10_000;
const WARN_LEVEL = 40;

export function createLogger(options: { level: string; secrets: readonly string[]; destination?: DestinationStream; name?: string; repeatWindowMs?: number }): Logger {
  const secrets = options.secrets.filter((secret) => secret.length >= 8);
  let writeSummary: (fields: object, message: string) => void = () => undefined;
  const repeats = createRepeatedWarnings({ windowMs: options.repeatWindowMs ?? REPEATED_WARNING_WINDOW_MS, write: (fields, message) => writeSummary(fields, message) });
  const logger = pino(
    {
      level: options.level,
      name: options.name,
      mixin: () => {
        const traceId = currentTraceId();
        return traceId === undefined ? {} : { traceId };
      },
      redact: {
        paths: ["req.headers.authorization", "headers.authorization", "authorization", "apiKey", "key", "secret", "secrets", "*.apiKey", "*.secret"],
        censor: "[redacted]",
      },
      hooks: {
        streamWrite: (line) => secrets.reduce((scrubbed, secret) => scrubbed.replaceAll(secret, "[redacted]"), line),
        // Warnings only: errors are always written, one by one.
        logMethod(args, method, level) {
          const message = args.find((arg): arg is string => typeof arg === "string");
          if (level === WARN_LEVEL && message !== undefined && !repeats.offer(message)) return;
          method.apply(this, args);
        },
      },
    },
    options.destination ?? pino.destination(1),
  );
  writeSummary = (fields, message) => logger.warn(fields, message);
  return logger;
}
