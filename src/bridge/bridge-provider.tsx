import { useQueryClient } from "@tanstack/react-query";
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import type { HostContext } from "#contract/bridge/messages.ts";
import { fetchAppConfig, setApiBridge } from "../api/bff-client.ts";
import { startLiveEvents } from "../api/live-events.ts";
import { queryKeys } from "../api/query-keys.ts";
import type { AppLink } from "./app-link.ts";
import { BridgeTimeout, HostBridge } from "./host-bridge.ts";
import { detectEmbedding, isAllowedOrigin } from "./parent-origin.ts";

// Connects the app to its host before anything else renders, and says
// plainly why when it cannot: opened outside an EHR, from a host that is not
// allowed, or a host that does not answer.

export type BridgeStatus =
  | { kind: "connecting" }
  | { kind: "standalone" }
  | { kind: "origin-not-allowed"; origin: string | null }
  | { kind: "failed"; message: string }
  | { kind: "connected"; bridge: HostBridge; context: HostContext };

const BridgeContext = createContext<{ bridge: AppLink; context: HostContext } | null>(null);

/** Provides a link that did not come from the EHR's handshake (a standalone sign-in). */
export function LinkProvider({ link, context, children }: { link: AppLink; context: HostContext; children: ReactNode }) {
  const value = useMemo(() => ({ bridge: link, context }), [link, context]);
  return <BridgeContext.Provider value={value}>{children}</BridgeContext.Provider>;
}

export function useBridge(): { bridge: AppLink; context: HostContext } {
  const value = useContext(BridgeContext);
  if (!value) throw new Error("useBridge outside a connected BridgeProvider");
  return value;
}

export function BridgeProvider({ children, fallback }: { children: ReactNode; fallback: (status: Exclude<BridgeStatus, { kind: "connected" }>) => ReactNode }) {
  const [status, setStatus] = useState<BridgeStatus>({ kind: "connecting" });
  const queryClient = useQueryClient();

  useEffect(() => {
    let bridge: HostBridge | null = null;
    let stopEvents: (() => void) | undefined;
    let cancelled = false;
    (async () => {
      const embedding = detectEmbedding(window);
      if (embedding.kind === "standalone") return setStatus({ kind: "standalone" });
      const config = await fetchAppConfig();
      if (!isAllowedOrigin(embedding.parentOrigin, config.allowedHostOrigins)) return setStatus({ kind: "origin-not-allowed", origin: embedding.parentOrigin });
      bridge = new HostBridge(window, embedding.parentOrigin);
      const first = await bridge.connect();
      if (cancelled) return;
      setApiBridge(bridge);
      const connected = bridge;
      setStatus({ kind: "connected", bridge: connected, context: first.context });
      connected.subscribe((state) => {
        setStatus({ kind: "connected", bridge: connected, context: state.context });
      });
      stopEvents = startLiveEvents(queryClient, connected);
    })().catch((error: unknown) => {
      setStatus({ kind: "failed", message: error instanceof BridgeTimeout || error instanceof Error ? error.message : "The EHR connection failed" });
    });
    return () => {
      cancelled = true;
      stopEvents?.();
      bridge?.disconnect();
      setApiBridge(null);
    };
  }, [queryClient]);

  // A new context (another patient, note or user) comes with a new token whose claims differ: the
  // organization's data is read again (inside the EHR it is all the page reads; query-keys.ts).
  const contextKey = status.kind === "connected" ? JSON.stringify(status.context) : "";
  useEffect(() => {
    if (contextKey) void queryClient.invalidateQueries({ queryKey: queryKeys.organization.all });
  }, [contextKey, queryClient]);

  if (status.kind !== "connected") return <>{fallback(status)}</>;
  return <BridgeContext.Provider value={{ bridge: status.bridge, context: status.context }}>{children}</BridgeContext.Provider>;
}
