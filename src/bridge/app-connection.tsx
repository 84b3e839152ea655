import type { ReactNode } from "react";
import { ConnectionNotice } from "#src/components/shell/connection-notice.tsx";
import { lazyPart } from "#src/components/shell/lazy-part.tsx";
import { CheckingSignIn } from "#src/features/standalone/checking-sign-in.tsx";
import { BridgeProvider, LinkProvider } from "./bridge-provider.tsx";

// Only a sign-in outside the EHR needs the gate's code (DESIGN.md's bundle budget: it loads when used).
const StandaloneGate = lazyPart("the sign-in", () => import("#src/features/standalone/standalone-gate.tsx").then((module) => module.StandaloneGate), { fallback: <CheckingSignIn /> });

// Who the app acts as, established before the router renders or runs a
// loader (issue 36 item 14): inside the EHR, the bridge's handshake; outside
// it, the standalone sign-in. Until then the connection's own screens (the
// sign-in, a host that is not allowed, a handshake that failed) stand in for
// the app. Each identity (organization and user) remounts what is inside
// (BridgeProvider, StandaloneGate), the router's views with it, so every
// loader runs again for the new identity (ADR 0025).
export function AppConnection({ children }: { children: ReactNode }) {
  return (
    <BridgeProvider
      fallback={(status) =>
        status.kind === "standalone" ? (
          <StandaloneGate>
            {(link, context) => (
              <LinkProvider link={link} context={context}>
                {children}
              </LinkProvider>
            )}
          </StandaloneGate>
        ) : (
          <ConnectionNotice status={status} />
        )
      }
    >
      {children}
    </BridgeProvider>
  );
}
