import { useLayoutEffect, useRef } from "react";

// A ref that always holds the value of the last committed render, for timers,
// async answers and stable callbacks that must read current state without
// being re-created on every change. (React's `useEffectEvent` serves only
// effects, not callbacks handed to children or kept by timers.)

/** The value of the last committed render, read through `.current`. */
export function useLatest<T>(value: T): { readonly current: T } {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
