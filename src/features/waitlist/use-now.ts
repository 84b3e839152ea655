import { useEffect, useState } from "react";

/** The time now, read again every `everyMs` while mounted (how long someone has waited; an offer whose slot has begun). */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
