import * as z from "zod/mini";
import { hostToAppMessage, type AppToHostMessage, type BookingRequest, type HostContext, type HostToAppMessage } from "#contract/bridge/messages.ts";
import type { AppLink, BookedInEhr } from "./app-link.ts";
import { tokenExpiresAt } from "./token-expiry.ts";

// The app's side of the host bridge (DESIGN.md "The host bridge"): post
// `tandem:ready` with a nonce to the exact parent origin, accept replies only
// from `window.parent` with that origin and nonce, validate every message,
// keep the token in memory, refresh it before expiry and before every write.
// One module, so a vendor SDK can replace it.

const REPLY_TIMEOUT_MS = 10_000;
/** Ask for a fresh token this long before the current one expires. */
const REFRESH_MARGIN_MS = 60_000;
/** A spare write token with less time left than this is not handed out (the BFF allows 30 s of skew). */
const SPARE_MIN_LIFE_MS = 60_000;

export interface BridgeState {
  token: string;
  context: HostContext;
}

export class BridgeTimeout extends Error {}
export class BookingDeclined extends Error {}

type Pending = { resolve: (message: HostToAppMessage) => void; reject: (error: Error) => void; timer: ReturnType<typeof setTimeout> };

/** A token as it arrived, with when it runs out on this browser's clock (token-expiry.ts). */
interface ReceivedToken {
  token: string;
  expiresAt: number | null;
}

const received = (token: string): ReceivedToken => ({ token, expiresAt: tokenExpiresAt(token, Date.now()) });
const hasTimeLeft = ({ expiresAt }: ReceivedToken) => expiresAt === null || expiresAt - Date.now() > SPARE_MIN_LIFE_MS;

function newNonce(): string {
  const bytes = new Uint8Array(24);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export class HostBridge implements AppLink {
  readonly mode = "embedded";
  private readonly nonce = newNonce();
  private state: BridgeState | null = null;
  private stateTokenExpiresAt: number | null = null;
  private readonly listeners = new Set<(state: BridgeState) => void>();
  private readonly pending = new Map<string, Pending>();
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private refreshing: Promise<string> | null = null;
  /** A write token asked for ahead and not yet spent (`prepareSpareWriteToken`). */
  private spare: ReceivedToken | null = null;
  private preparingSpare = false;
  /** A write token asked for ahead of a write about to follow (`askWriteTokenAhead`), for the next write alone. */
  private tokenAhead: Promise<string> | null = null;
  private sequence = 0;
  private readonly onMessage = (event: MessageEvent) => this.receive(event);

  constructor(
    private readonly win: Window,
    private readonly parentOrigin: string,
  ) {}

  /** Starts the handshake; resolves with the first context (or rejects after a timeout). */
  connect(): Promise<BridgeState> {
    this.win.addEventListener("message", this.onMessage);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new BridgeTimeout("The EHR did not answer the app's handshake")), REPLY_TIMEOUT_MS);
      const unsubscribe = this.subscribe((state) => {
        clearTimeout(timer);
        unsubscribe();
        resolve(state);
      });
      this.post({ type: "tandem:ready", nonce: this.nonce });
    });
  }

  disconnect(): void {
    this.win.removeEventListener("message", this.onMessage);
    this.tokenAhead = null;
    clearTimeout(this.refreshTimer);
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(new BridgeTimeout("The bridge closed"));
    }
    this.pending.clear();
  }

  current(): BridgeState | null {
    return this.state;
  }

  subscribe(listener: (state: BridgeState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The token in memory, refreshed first if it is about to expire. */
  async token(): Promise<string> {
    const state = this.state;
    if (!state) throw new BridgeTimeout("No EHR session yet");
    const expiresAt = this.stateTokenExpiresAt;
    if (expiresAt !== null && expiresAt - Date.now() < REFRESH_MARGIN_MS / 2) return this.freshToken();
    return state.token;
  }

  /** Asks the host for a new token: before every write (a write's token is spent) and after a 401. */
  freshToken(): Promise<string> {
    this.refreshing ??= this.requestToken().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** A new token from the host for one write, never shared (concurrent writes would replay each other's): the one asked for ahead, if any, else asked for now. */
  writeToken(): Promise<string> {
    const ahead = this.tokenAhead;
    this.tokenAhead = null;
    if (ahead === null) return this.requestToken();
    return ahead.then(
      (token) => (hasTimeLeft(received(token)) ? token : this.requestToken()),
      () => this.requestToken(),
    );
  }

  askWriteTokenAhead(): void {
    if (this.tokenAhead !== null) return;
    const ahead = this.requestToken();
    // Not taken by a write, its failure is nobody's: the next write asks again.
    ahead.catch(() => undefined);
    this.tokenAhead = ahead;
  }

  /** Asks the host for a token kept aside, unspent, unless one with time left is ready or on its way. */
  prepareSpareWriteToken(): void {
    if (this.preparingSpare || (this.spare !== null && hasTimeLeft(this.spare))) return;
    this.preparingSpare = true;
    this.request({ type: "tandem:token-request", nonce: this.nonce, requestId: this.nextRequestId() })
      .then((message) => {
        if (message.type === "tandem:token") this.spare = received(message.token);
      })
      .catch(() => undefined)
      .finally(() => {
        this.preparingSpare = false;
      });
  }

  /**
   * The spare token, once: a write spends it. Synchronous, for a page being left. Handed out even when this
   * browser's clock says it is nearly spent: the BFF judges it, and a browser whose clock differs from the
   * EHR's would otherwise never send the text (`prepareSpareWriteToken` keeps asking for a newer one meanwhile).
   */
  takeSpareWriteToken(): { token: string } | null {
    const spare = this.spare;
    this.spare = null;
    return spare !== null ? { token: spare.token } : null;
  }

  private async requestToken(): Promise<string> {
    const message = await this.request({ type: "tandem:token-request", nonce: this.nonce, requestId: this.nextRequestId() });
    if (message.type !== "tandem:token") throw new BridgeTimeout("Unexpected reply to a token request");
    this.update({ token: message.token, context: this.state?.context ?? {} });
    return message.token;
  }

  /** Asks the EHR to book a held slot; resolves with the EHR's appointment id and its own reference, when given. */
  /** Inside the EHR a 401 after a fresh token is the EHR session's own end: the error notice says so; nothing to sign in here. */
  signInEnded(): void {}

  async book(hold: BookingRequest): Promise<BookedInEhr> {
    const reply = await this.request({ type: "tandem:book", nonce: this.nonce, requestId: this.nextRequestId(), hold }, 60_000);
    if (reply.type === "tandem:booked") return { appointmentId: reply.appointmentId, reference: reply.reference ?? null };
    if (reply.type === "tandem:book-declined") throw new BookingDeclined(reply.reason);
    throw new BridgeTimeout("Unexpected reply to a booking request");
  }

  private nextRequestId(): string {
    this.sequence += 1;
    return `${this.nonce.slice(0, 8)}-${this.sequence}`;
  }

  private post(message: AppToHostMessage): void {
    this.win.parent.postMessage(message, this.parentOrigin);
  }

  private request(message: Extract<AppToHostMessage, { requestId: string }>, timeoutMs = REPLY_TIMEOUT_MS): Promise<HostToAppMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(message.requestId);
        reject(new BridgeTimeout("The EHR did not answer in time"));
      }, timeoutMs);
      this.pending.set(message.requestId, { resolve, reject, timer });
      this.post(message);
    });
  }

  private receive(event: MessageEvent): void {
    // Only the parent window, from the checked origin, with our nonce.
    if (event.source !== this.win.parent || event.origin !== this.parentOrigin) return;
    const parsed = z.safeParse(hostToAppMessage, event.data);
    if (!parsed.success || parsed.data.nonce !== this.nonce) return;
    const message = parsed.data;
    if (message.type === "tandem:context") {
      // A token asked for ahead may be the previous user's or organization's: a write asks afresh.
      this.tokenAhead = null;
      this.update({ token: message.token, context: message.context });
      return;
    }
    const pending = this.pending.get(message.requestId);
    if (!pending) return;
    this.pending.delete(message.requestId);
    clearTimeout(pending.timer);
    pending.resolve(message);
  }

  private update(state: BridgeState): void {
    this.state = state;
    this.stateTokenExpiresAt = received(state.token).expiresAt;
    this.scheduleRefresh(this.stateTokenExpiresAt);
    for (const listener of [...this.listeners]) listener(state);
  }

  private scheduleRefresh(expiresAt: number | null): void {
    clearTimeout(this.refreshTimer);
    if (expiresAt === null) return;
    const delay = Math.max(1_000, expiresAt - Date.now() - REFRESH_MARGIN_MS);
    this.refreshTimer = setTimeout(() => {
      this.freshToken().catch(() => undefined);
    }, delay);
  }
}
