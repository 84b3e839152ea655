#!/usr/bin/env bash
# Unit and integration tests, then the time and recurrence tests again under
# host zones chosen to break anything that leaks the machine's zone
# (DESIGN.md: results never depend on the time zone of the machine).
set -euo pipefail
TZ=UTC npx vitest run
for zone in America/Los_Angeles Asia/Kolkata Australia/Lord_Howe; do
  echo "--- the time and recurrence tests under TZ=$zone"
  TZ="$zone" npx vitest run contract/time contract/recurrence src/features/availability/expand-template src/lib/time-format server/schedule/booked-load
done
