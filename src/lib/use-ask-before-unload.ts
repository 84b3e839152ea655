import { useEffect } from "react";

/**
 * While `isAsking`, a reload or close of the frame asks the browser's own
 * question first: typed text that lives only in this page (the browser may
 * deny a cross-site frame its sessionStorage) is not lost to a stray reload.
 */
export function useAskBeforeUnload(isAsking: boolean): void {
  useEffect(() => {
    if (!isAsking) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older Chromium needs returnValue set to show the prompt.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", ask);
    return () => window.removeEventListener("beforeunload", ask);
  }, [isAsking]);
}
