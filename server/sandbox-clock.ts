import * as z from "zod/mini";

// SANDBOX_CLOCK=emulator (sandbox only): the BFF takes the emulator's clock as
// its own, read once at start-up and running from there, so a sandbox pinned
// to an instant (EMULATOR_CLOCK_START, the e2e suite) issues and verifies
// host tokens, webhook timestamps and hold expiry on one timeline. Later moves
// of the emulator's clock (`POST /_sandbox/clock`) are not followed: they are
// how tests exercise the BFF's own time checks.

const clockReading = z.object({ now: z.iso.datetime({ offset: true }) });

/** A clock that reads what the emulator's clock read at start-up, plus the real time since. */
export async function followEmulatorClock(emulatorUrl: string, fetchClock: typeof fetch = fetch, realNow: () => number = Date.now): Promise<() => number> {
  const sentAt = realNow();
  const response = await fetchClock(`${emulatorUrl}/_sandbox/clock`);
  const receivedAt = realNow();
  if (!response.ok) throw new Error(`SANDBOX_CLOCK=emulator: GET ${emulatorUrl}/_sandbox/clock answered ${response.status}`);
  const reading = z.safeParse(clockReading, await response.json());
  if (!reading.success) throw new Error(`SANDBOX_CLOCK=emulator: ${emulatorUrl}/_sandbox/clock did not answer {now}`);
  // The emulator read its clock somewhere within the round trip: take the middle, in whole milliseconds as
  // Date.now() gives (the upstream budget's send log keeps instants as PostgreSQL bigints).
  const offsetMs = Math.round(Date.parse(reading.data.now) - (sentAt + receivedAt) / 2);
  return () => realNow() + offsetMs;
}
