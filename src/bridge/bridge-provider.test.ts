import { describe, expect, it } from "vitest";
import { connectedStatus, type BridgeStatus } from "./bridge-provider.tsx";
import type { HostBridge } from "./host-bridge.ts";

// A token refresh (one before every write) changes nothing on screen: the status shown stays the same object, so
// React re-renders nothing; another patient, note or identity is a new status.

const bridge = {} as HostBridge;
const shown = { kind: "connected", bridge, context: { patientId: "pat_1", noteId: null }, identity: "organization|org_a|alice" } satisfies BridgeStatus;

describe("connectedStatus", () => {
  it("keeps the status shown when only the token changed", () => {
    expect(connectedStatus(shown, { ...shown, context: { patientId: "pat_1", noteId: null } })).toBe(shown);
  });

  it("shows a new status for another patient, another identity, or the first connection", () => {
    const otherPatient = { ...shown, context: { patientId: "pat_2", noteId: null } };
    expect(connectedStatus(shown, otherPatient)).toBe(otherPatient);
    const otherUser = { ...shown, identity: "organization|org_a|bob" };
    expect(connectedStatus(shown, otherUser)).toBe(otherUser);
    expect(connectedStatus({ kind: "connecting" }, shown)).toBe(shown);
  });
});
