import { useBlocker } from "@tanstack/react-router";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { useAskBeforeUnload } from "#src/lib/use-ask-before-unload.ts";

// Asks before leaving a note with unsaved text: the browser's own prompt on
// reload or close (beforeunload), and LeaveGuardDialog for a move inside the
// app. Only a move to another page asks; a change of search params on the
// same page keeps the editor mounted and loses nothing.

export const LEAVE_TITLE = "Leave without saving?";
export const LEAVE_DETAIL = "Your draft is kept and will be offered when you come back.";

export interface LeaveGuard {
  /** A move inside the app is waiting for the user's answer: render LeaveGuardDialog open. */
  isAsking: boolean;
  stay: () => void;
  leave: () => void;
}

export function useLeaveGuard(hasUnsavedChanges: boolean): LeaveGuard {
  // Read when the user moves, so the blocker is registered once rather than on every keystroke.
  const unsaved = useRef(hasUnsavedChanges);
  useEffect(() => {
    unsaved.current = hasUnsavedChanges;
  }, [hasUnsavedChanges]);
  const shouldBlockFn = useCallback(({ current, next }: { current: { pathname: string }; next: { pathname: string } }) => unsaved.current && current.pathname !== next.pathname, []);
  useAskBeforeUnload(hasUnsavedChanges);
  const blocker = useBlocker({ shouldBlockFn, enableBeforeUnload: false, withResolver: true });
  return useMemo(
    () => ({
      isAsking: blocker.status === "blocked",
      stay: () => blocker.reset?.(),
      leave: () => blocker.proceed?.(),
    }),
    [blocker],
  );
}
