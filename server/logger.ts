import pino, { type DestinationStream, type Logger } from "pino";

// pino with redaction. Besides the usual header paths, every written line is
// scrubbed of the configured secrets (the data key, the webhook secrets), so
// neither can reach a log whatever object carries it.

export type { Logger };

export function createLogger(options: { level: string; secrets: readonly string[]; destination?: DestinationStream; name?: string }): Logger {
  const secrets = options.secrets.filter((secret) => secret.length >= 8);
  return pino(
    {
      level: options.level,
      name: options.name,
      redact: {
        paths: ["req.headers.authorization", "headers.authorization", "authorization", "apiKey", "key", "secret", "secrets", "*.apiKey", "*.secret"],
        censor: "[redacted]",
      },
      hooks: {
        streamWrite: (line) => secrets.reduce((scrubbed, secret) => scrubbed.replaceAll(secret, "[redacted]"), line),
      },
    },
    options.destination ?? pino.destination(1),
  );
}
