import { useQueryClient } from "@tanstack/react-query";
import { createContext, Fragment, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import type { HostContext } from "#contract/bridge/messages.ts";
import { fetchAppConfigOnceAnswered, setApiBridge } from "../api/bff-client.ts";
import { currentCacheIdentity, identityKey, sameIdentity, switchCacheIdentity } from "../api/cache-identity.ts";
import { startLiveEvents } from "../api/live-events.ts";
import { queryKeys } from "../api/query-keys.ts";
import type { AppLink } from "./app-link.ts";
import { BridgeTimeout, HostBridge, type BridgeState } from "./host-bridge.ts";
import { detectEmbedding, isAllowedOrigin } from "./parent-origin.ts";
import { cacheIdentityOfHostToken } from "./token-identity.ts";

// Connects the app to its host before anything else renders, and says
// plainly why when it cannot: opened outside an EHR, from a host that is not
// allowed, a host that does not answer, or Tandem's server not answering
// (waited for: the app connects once it does).

export type BridgeStatus =
  | { kind: "connecting" }
  /** Tandem's server did not give the app its configuration: asked again until it does. */
  | { kind: "server-unreachable" }
  | { kind: "standalone" }
  | { kind: "origin-not-allowed"; origin: string | null }
  | { kind: "failed"; message: string }
  /** `identity`: identityKey of whose data the cache holds (the token's organization and user). */
  | { kind: "connected"; bridge: HostBridge; context: HostContext; identity: string };

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
      let waited = false;
      const config = await fetchAppConfigOnceAnswered(
        () => {
          waited = true;
          setStatus({ kind: "server-unreachable" });
        },
        () => !cancelled,
      );
      if (cancelled) return;
      if (waited) setStatus({ kind: "connecting" });
      if (!isAllowedOrigin(embedding.parentOrigin, config.allowedHostOrigins)) return setStatus({ kind: "origin-not-allowed", origin: embedding.parentOrigin });
      bridge = new HostBridge(window, embedding.parentOrigin);
      const first = await bridge.connect();
      if (cancelled) return;
      setApiBridge(bridge);
      const connected = bridge;
      let shownContext: string | null = null;
      // Each context from the host, and each token refreshed: another organization or user (ADR 0025) removes
      // the previous one's data before anything renders for the new one; another patient or note of the same
      // user comes with a token whose claims differ, so the data is read again (query-keys.ts).
      const adopt = (state: BridgeState) => {
        const identity = cacheIdentityOfHostToken(state.token);
        const context = JSON.stringify(state.context);
        if (!sameIdentity(identity, currentCacheIdentity())) switchCacheIdentity(queryClient, identity);
        else if (shownContext !== null && context !== shownContext) void queryClient.invalidateQueries({ queryKey: queryKeys.organization.all });
        shownContext = context;
        setStatus({ kind: "connected", bridge: connected, context: state.context, identity: identityKey(identity) });
      };
      adopt(first);
      connected.subscribe(adopt);
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

  if (status.kind !== "connected") return <>{fallback(status)}</>;
  return (
    <BridgeContext.Provider value={{ bridge: status.bridge, context: status.context }}>
      {/* Another identity remounts the app: no view keeps what it held for the previous one (typed text, choices). */}
      <Fragment key={status.identity}>{children}</Fragment>
    </BridgeContext.Provider>
  );
}
