import type { BookingRequest } from "#contract/bridge/messages.ts";
import type { AppLink, BookedInEhr } from "./app-link.ts";
import { BookingDeclined } from "./host-bridge.ts";

// A standalone sign-in (outside the EHR): calls carry the __Host- session
// cookie, never a token; there is no EHR to book a held slot in.

export const STANDALONE_BOOKING_REASON = "Tandem is open outside the EHR, so it cannot book. The slot stays held for you: book it in the EHR.";

export class StandaloneLink implements AppLink {
  readonly mode = "standalone";

  /** `onSignInEnded`: the session was signed out elsewhere, revoked, or ended by the service: show the sign-in again. */
  constructor(private readonly onSignInEnded: () => void = () => undefined) {}

  signInEnded(): void {
    this.onSignInEnded();
  }

  token(): Promise<string | null> {
    return Promise.resolve(null);
  }

  freshToken(): Promise<string | null> {
    return Promise.resolve(null);
  }

  writeToken(): Promise<string | null> {
    return Promise.resolve(null);
  }

  askWriteTokenAhead(): void {}

  prepareSpareWriteToken(): void {}

  takeSpareWriteToken(): { token: string | null } {
    return { token: null };
  }

  book(_hold: BookingRequest): Promise<BookedInEhr> {
    return Promise.reject(new BookingDeclined(STANDALONE_BOOKING_REASON));
  }
}
