import { useEffect } from "react";
import { markUnsentUntilSignOut } from "#src/api/before-sign-out.ts";

/**
 * While `isAsking`, a reload or close of the frame asks the browser's own
 * question first: typed text that lives only in this page (the browser may
 * deny a cross-site frame its sessionStorage) is not lost to a stray reload.
 * With `unsentBeforeSignOut` (text that never reaches Tandem's server until
 * the user sends it), Sign out asks too, naming it.
 */
export function useAskBeforeUnload(isAsking: boolean, unsentBeforeSignOut?: string): void {
  useEffect(() => {
    if (!isAsking) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older Chromium needs returnValue set to show the prompt.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", ask);
    const unmark = unsentBeforeSignOut === undefined ? undefined : markUnsentUntilSignOut(unsentBeforeSignOut);
    return () => {
      window.removeEventListener("beforeunload", ask);
      unmark?.();
    };
  }, [isAsking, unsentBeforeSignOut]);
}
