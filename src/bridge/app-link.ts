import type { BookingRequest } from "../../contract/bridge/messages.ts";

// What the app needs from whatever signed the user in: the EHR's host bridge
// (a host token per request, booking in the EHR) or a standalone sign-in
// (a first-party session cookie, no EHR to book in). The API client, the live
// events and the slot finder use only this.

export interface AppLink {
  readonly mode: "embedded" | "standalone";
  /** The host token for the Authorization header, or null when the session cookie authorises calls. */
  token(): Promise<string | null>;
  /** A token not yet spent: before every write, and after a 401. */
  freshToken(): Promise<string | null>;
  /** Asks the EHR to book a held slot; resolves with the EHR's appointment id. */
  book(hold: BookingRequest): Promise<string>;
}
