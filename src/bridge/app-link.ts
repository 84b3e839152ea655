import type { BookingRequest } from "#contract/bridge/messages.ts";

/** What the EHR answered to a booking: its appointment id, and its own reference for it when it gives one. */
export interface BookedInEhr {
  appointmentId: string;
  reference: string | null;
}

// What the app needs from whatever signed the user in: the EHR's host bridge
// (a host token per request, booking in the EHR) or a standalone sign-in
// (a first-party session cookie, no EHR to book in). The API client, the live
// events and the slot finder use only this.

export interface AppLink {
  readonly mode: "embedded" | "standalone";
  /** The host token for the Authorization header, or null when the session cookie authorises calls. */
  token(): Promise<string | null>;
  /** A token not yet spent, shared by the callers asking at the same moment: after a 401. */
  freshToken(): Promise<string | null>;
  /** A token for one write alone: a write spends its token (its `jti`), so two writes at once never share one. */
  writeToken(): Promise<string | null>;
  /** Asks now for the token of a write about to follow (a slot's hold after its check): the next `writeToken` takes it instead of waiting for the EHR. */
  askWriteTokenAhead(): void;
  /** Gets a write token ready ahead, for a write that cannot wait for one: the page being left (issue 35 item 2). */
  prepareSpareWriteToken(): void;
  /** The token got ready, handed out once; null when none is ready or its time is nearly up. `{token: null}`: the session cookie authorises. */
  takeSpareWriteToken(): { token: string | null } | null;
  /** Asks the EHR to book a held slot; resolves with the EHR's appointment id and its own reference, when given. */
  book(hold: BookingRequest): Promise<BookedInEhr>;
  /** Told when the BFF no longer accepts the sign-in (401 that no fresh token can mend): a standalone session ended. */
  signInEnded(): void;
}
