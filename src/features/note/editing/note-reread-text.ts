import { APP_ERROR_CODES } from "#contract/app-api/errors.ts";
import { ApiError } from "#src/api/bff-client.ts";
import { failingSystemOf } from "#src/api/failing-system.ts";
import { describeApiError } from "#src/components/shell/api-error-notice.tsx";

// What the note view says when a re-read of the open note fails (every 20 s,
// on focus, after a live event) while the note is already on screen: the
// editor stays (issue 35: it is never taken away while it holds unsaved
// text), and one line names the system that failed and what becomes of the
// text.

export interface RereadContext {
  /** Typed text not yet saved to the EHR, or a draft from earlier waiting for Restore or Discard. */
  hasUnsavedText: boolean;
  /** The BFF acknowledged the latest text before the failure (else it is this tab's copy, or only on the page). */
  isDraftInBff: boolean;
  /** This tab can keep a copy (sessionStorage); false where the browser denies the EHR's frame its storage. */
  canKeepInTab: boolean;
  /** The note can no longer be changed here: the text is only to copy. */
  isReadOnly: boolean;
}

/** One sentence: who failed, then what happens to the text and the note. */
export function noteRereadText(error: unknown, { hasUnsavedText, isDraftInBff, canKeepInTab, isReadOnly }: RereadContext): string {
  const system = failingSystemOf(error);
  if (system === "tandem") {
    const who = error instanceof ApiError && error.body.code === APP_ERROR_CODES.notReady ? "Tandem's server is restarting" : "Tandem's server is not answering";
    if (!hasUnsavedText) return `${who}: the note below is as Tandem last read it; it is read again when Tandem is back.`;
    if (isReadOnly) return canKeepInTab ? `${who}: your text is kept in this tab to copy.` : `${who}: your text is on this page only, to copy: keep it open.`;
    if (isDraftInBff) return `${who}: your text was kept before it stopped; it will be saved when Tandem is back.`;
    // The browser denies this frame its storage: a reload now would lose what Tandem has not had yet.
    if (!canKeepInTab) return `${who}: your text is on this page only; keep it open and it will be saved when Tandem is back.`;
    return `${who}: your text is kept in this tab; it will be saved when Tandem is back.`;
  }
  const who = system === "service" ? "The clinic data service did not answer" : system === "ehr" ? "The EHR did not answer" : describeApiError(error).title;
  return hasUnsavedText ? `${who}: the note below is as Tandem last read it; your text is kept.` : `${who}: the note below is as Tandem last read it; it is read again shortly.`;
}
