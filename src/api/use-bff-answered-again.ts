import { useEffect, useState } from "react";
import { ApiError } from "./bff-client.ts";
import { onBffAnswered } from "./bff-reachability.ts";
import { isInstallationInactive } from "./failing-system.ts";

/**
 * A failure that Tandem's server answering again clears: the call never
 * reached it, or Tandem was not active for the organization (every call is
 * refused until it is, so an answer means it is active again).
 */
export function clearsWhenTandemAnswers(error: unknown): boolean {
  return error !== null && (!(error instanceof ApiError) || isInstallationInactive(error));
}

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
