import { useState } from "react";
import type { HeldSlot } from "#contract/app-api/slots.ts";
import { unconfirmedHolds } from "./holds-bar-model.ts";

// Holds made for a patient who is no longer open in the EHR are kept until
// the user says what to do with them. Releasing goes through the controller;
// keeping them is remembered here, so they are not asked about again.

export function useUnconfirmedHolds(holds: readonly HeldSlot[], openPatientId: string | null) {
  const [kept, setKept] = useState<ReadonlySet<string>>(new Set());
  const unconfirmed = unconfirmedHolds(holds, openPatientId, kept);
  const keepHolding = () => setKept(new Set([...kept, ...unconfirmed.map((held) => held.id)]));
  return { unconfirmed, keepHolding };
}
