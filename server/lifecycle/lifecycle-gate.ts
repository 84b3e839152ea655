import { APP_ERROR_CODES, type AppErrorBody } from "#contract/app-api/errors.ts";
import { displayTraceId, newTraceContext } from "#contract/app-api/trace-context.ts";

// The process's readiness, in front of the BFF's app (ADR 0018).
// The port is bound before the store is open: while starting, `/healthz` and
// `/readyz` answer 503 and everything else is refused. Once ready, `/readyz`
// answers 503 while the store does not answer within 1 s (as last checked,
// store-health.ts: never a query per probe), so a load balancer stops sending
// users to the process until it does again (DESIGN.md). Once draining
// (graceful-shutdown.ts), `/readyz` answers 503, `/healthz` still reports the
// store (the process is alive), any other new request is refused, and every
// answer closes its connection, so no keep-alive connection outlives the
// drain. Requests admitted before are counted until answered: the drain
// waits for them.

export type LifecycleState = "starting" | "ready" | "draining";
export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** `GET /readyz`: whether a proxy or an orchestrator may send this process traffic. */
export interface Readiness {
  ready: boolean;
  state: LifecycleState;
  /** While ready: whether the store answered in time at its last check. */
  store?: "ready" | "unavailable";
}

const REFUSAL_TEXT: Record<Exclude<LifecycleState, "ready">, string> = {
  starting: "Tandem is starting; try again in a moment",
  draining: "This Tandem process is shutting down; try again",
};

export class LifecycleGate {
  private current: LifecycleState = "starting";
  private app: FetchHandler | null = null;
  private isStoreReady: () => boolean = () => true;
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];

  get state(): LifecycleState {
    return this.current;
  }

  /** Requests admitted and not yet answered (a stream counts until its response has started). */
  get requestsInFlight(): number {
    return this.inFlight;
  }

  /** The store is open and the background work started: serve `app`; ready while `isStoreReady` says so. */
  ready(app: FetchHandler, isStoreReady: () => boolean = () => true): void {
    this.app = app;
    this.isStoreReady = isStoreReady;
    if (this.current === "starting") this.current = "ready";
  }

  /** From now on: not ready, new requests refused, every answer closes its connection. */
  drain(): void {
    this.current = "draining";
  }

  /** Resolves once no admitted request is left unanswered. */
  whenIdle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** The server's request handler. */
  readonly fetch = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    if (pathname === "/readyz") return this.readiness();
    const app = this.app;
    if (app === null) return pathname === "/healthz" ? json(503, { ok: false, store: "starting" }) : refusal("starting");
    if (this.current === "draining" && pathname !== "/healthz") return refusal("draining");
    this.inFlight += 1;
    try {
      const response = await app(request);
      return this.current === "draining" ? closingConnection(response) : response;
    } finally {
      this.inFlight -= 1;
      if (this.inFlight === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  };

  private readiness(): Response {
    const store = this.current !== "ready" ? undefined : this.isStoreReady() ? "ready" : "unavailable";
    const body: Readiness = { ready: store === "ready", state: this.current, ...(store && { store }) };
    const response = json(body.ready ? 200 : 503, body);
    return this.current === "draining" ? closingConnection(response) : response;
  }
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", ...headers },
  });
}

function refusal(state: Exclude<LifecycleState, "ready">): Response {
  const body: AppErrorBody = { code: APP_ERROR_CODES.notReady, message: REFUSAL_TEXT[state], trace_id: displayTraceId(newTraceContext()) };
  return json(503, body, { "Retry-After": "1", ...(state === "draining" && { Connection: "close" }) });
}

function closingConnection(response: Response): Response {
  // A response's headers may be immutable (one made by fetch, a redirect): copy it.
  const closing = new Response(response.body, response);
  closing.headers.set("Connection", "close");
  return closing;
}
