import { useEffect, useState } from "react";
import { onBffAnswered } from "./bff-reachability.ts";

/**
 * Whether Tandem's server has answered any call of the app (another view's
 * read, the live stream) since `unreached`, a failure to reach it, was met:
 * a notice saying it cannot be reached is then no longer true. False while
 * `unreached` is null, and again for each new failure.
 */
export function useBffAnsweredAgain(unreached: unknown): boolean {
  const [answeredAfter, setAnsweredAfter] = useState<unknown>(null);
  useEffect(() => {
    if (unreached === null) return undefined;
    return onBffAnswered(() => setAnsweredAfter(() => unreached));
  }, [unreached]);
  return unreached !== null && answeredAfter === unreached;
}
