import http from "node:http";
import { performance } from "node:perf_hooks";
import { gunzipSync } from "node:zlib";
import { HOLD_LIMIT_CODE } from "#contract/app-api/slots.ts";
import type { SessionTokens } from "./host-tokens.ts";

// The load bench's side of the BFF's API: requests over a keep-alive agent
// per BFF process, recorded into one set of figures, and the SPA's live-event
// stream per session. Kept cheap, since the generator shares the machine's
// cores with what it measures: a body is kept only when the session reads it
// (or the answer is an error), otherwise it is drained unread.

const REQUEST_TIMEOUT_MS = 15_000;

/**
 * An answer as received. Its body (empty unless the call asked for it or the
 * answer is not 2xx) is decoded only when read, after the answer was timed:
 * a browser's network stack unzips off the page's thread, and this process
 * times every answer in flight on its one thread.
 */
export class Answer {
  private decoded: string | undefined;

  constructor(
    readonly status: number,
    /** The body as it came, gzip-compressed when `isGzip`. */
    readonly bytes: Buffer,
    readonly isGzip: boolean,
  ) {}

  get text(): string {
    this.decoded ??= (this.isGzip ? gunzipSync(this.bytes) : this.bytes).toString();
    return this.decoded;
  }
}

/** The server closed an idle keep-alive connection just as it was reused: nothing reached it. */
class StaleSocketError extends Error {}

const errorCode = (error: unknown) => (error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : error instanceof Error && error.message.startsWith("timeout") ? "timeout" : "error");

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export const asRecord = (value: unknown): Record<string, unknown> => (typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {});
export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]) : []);
export const asString = (value: unknown): string => (typeof value === "string" ? value : "");

interface RouteFigures {
  requests: number;
  latencies: number[];
  errors: number;
}

/** Every answer of the run, whichever process gave it. */
export class LoadFigures {
  readonly routes = new Map<string, RouteFigures>();
  readonly byStatus: Record<string, number> = {};
  readonly errorsByCode: Record<string, number> = {};
  readonly all: number[] = [];
  /** When each of `all` was answered (performance.now()). */
  readonly answeredAt: number[] = [];
  /** Requests per BFF process (by its index). */
  readonly perProcess: number[] = [];
  requests = 0;
  errors = 0;
  rateLimitedToUsers = 0;
  networkErrors = 0;
  /** Requests sent again once because a reused keep-alive socket had just been closed by the server (what browsers do too). */
  staleSocketRetries = 0;
  holdConflicts = 0;
  holdLimitRefusals = 0;
  /** Off until the clock starts: setup traffic is not counted. */
  recording = false;

  routeOf(route: string): RouteFigures {
    let figures = this.routes.get(route);
    if (!figures) {
      figures = { requests: 0, latencies: [], errors: 0 };
      this.routes.set(route, figures);
    }
    return figures;
  }
}

/** Calls one BFF process over its own keep-alive agent and records every answer. */
export class AppClient {
  private readonly agent: http.Agent;
  private readonly target: URL;

  constructor(
    appUrl: string,
    private readonly figures: LoadFigures,
    private readonly processIndex: number,
    maxSockets: number,
  ) {
    this.target = new URL(appUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets, keepAliveMsecs: 30_000 });
  }

  /**
   * Unrecorded (setup); the body is always kept. A request on a kept-alive
   * connection the BFF had just closed is sent once more on a new one, as a
   * browser does (`onStaleSocket` is told).
   */
  async send(method: string, path: string, token: string, body?: unknown, keepBody = true, onStaleSocket?: () => void): Promise<Answer> {
    try {
      return await this.sendOnce(method, path, token, body, keepBody);
    } catch (error) {
      if (!(error instanceof StaleSocketError)) throw error;
      onStaleSocket?.();
      return this.sendOnce(method, path, token, body, keepBody);
    }
  }

  private sendOnce(method: string, path: string, token: string, body: unknown, keepBody: boolean): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      // As a browser: it accepts gzip (and unzips only what it reads).
      const headers: Record<string, string> = { accept: "application/json", "accept-encoding": "gzip", authorization: `Bearer ${token}` };
      if (payload !== undefined) {
        headers["content-type"] = "application/json";
        headers["content-length"] = String(Buffer.byteLength(payload));
      }
      const request = http.request({ host: this.target.hostname, port: this.target.port, method, path, agent: this.agent, headers }, (response) => {
        const status = response.statusCode ?? 0;
        if (!keepBody && status >= 200 && status <= 299) {
          response.on("end", () => resolve(new Answer(status, Buffer.alloc(0), false)));
          response.on("error", reject);
          response.resume();
          return;
        }
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve(new Answer(status, Buffer.concat(chunks), response.headers["content-encoding"] === "gzip")));
        response.on("error", reject);
      });
      request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy(new Error(`timeout after ${REQUEST_TIMEOUT_MS} ms`)));
      request.on("error", (error) => reject(request.reusedSocket && errorCode(error) === "ECONNRESET" ? new StaleSocketError(error.message) : error));
      request.end(payload);
    });
  }

  /** A recorded call of route class `route`; null on a network failure or timeout. */
  async call(route: string, method: string, path: string, token: string, options: { body?: unknown; keepBody?: boolean } = {}): Promise<Answer | null> {
    const all = this.figures;
    const recording = all.recording;
    const figures = all.routeOf(route);
    if (recording) {
      all.requests += 1;
      all.perProcess[this.processIndex] = (all.perProcess[this.processIndex] ?? 0) + 1;
      figures.requests += 1;
    }
    const started = performance.now();
    let answer: Answer;
    try {
      answer = await this.send(method, path, token, options.body, options.keepBody ?? false, () => {
        if (recording) all.staleSocketRetries += 1;
      });
    } catch (error) {
      if (!recording) return null;
      all.networkErrors += 1;
      all.errors += 1;
      figures.errors += 1;
      const kind = errorCode(error) === "timeout" ? "timeout" : "network";
      all.byStatus[kind] = (all.byStatus[kind] ?? 0) + 1;
      const key = `${kind} ${errorCode(error)} ${route}`;
      all.errorsByCode[key] = (all.errorsByCode[key] ?? 0) + 1;
      return null;
    }
    if (!recording) return answer;
    const elapsed = performance.now() - started;
    figures.latencies.push(elapsed);
    all.all.push(elapsed);
    all.answeredAt.push(started + elapsed);
    all.byStatus[answer.status] = (all.byStatus[answer.status] ?? 0) + 1;
    if (answer.status < 200 || answer.status > 299) {
      all.errors += 1;
      figures.errors += 1;
      const code = asString(asRecord(parseJson(answer.text)).code) || "?";
      const key = `${answer.status} ${code} ${route}`;
      all.errorsByCode[key] = (all.errorsByCode[key] ?? 0) + 1;
      if (answer.status === 429 || code === "rate_limited" || code === "rate_limit_exceeded") all.rateLimitedToUsers += 1;
      if (route === "holdCreate" && answer.status === 409 && code === "conflict") all.holdConflicts += 1;
      if (route === "holdCreate" && answer.status === 409 && code === HOLD_LIMIT_CODE) all.holdLimitRefusals += 1;
    }
    return answer;
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The SPA's live-event stream of each session, reopened when it closes (at the token's expiry). */
export class LiveStreams {
  opened = 0;
  failures = 0;
  events = 0;
  heartbeats = 0;
  private readonly open = new Set<http.ClientRequest>();
  private readonly agent = new http.Agent({ keepAlive: false });
  private stopped = false;

  keep(appUrl: string, tokens: SessionTokens, isRunning: () => boolean): void {
    const target = new URL(appUrl);
    const connect = async (): Promise<void> => {
      while (!this.stopped && isRunning()) {
        const token = await tokens.read().catch(() => null);
        if (token === null) {
          await new Promise((resolve) => setTimeout(resolve, 2_000));
          continue;
        }
        await new Promise<void>((resolve) => {
          const request = http.get({ host: target.hostname, port: target.port, path: "/api/events", agent: this.agent, headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" } }, (response) => {
            if (response.statusCode !== 200) {
              this.failures += 1;
              response.resume();
              response.on("end", resolve);
              return;
            }
            this.opened += 1;
            response.setEncoding("utf8");
            response.on("data", (text: string) => {
              this.events += text.match(/^event: tandem$/gm)?.length ?? 0;
              this.heartbeats += text.match(/^event: (?!tandem$).*$/gm)?.length ?? 0;
            });
            response.on("end", resolve);
            response.on("error", resolve);
          });
          this.open.add(request);
          request.on("error", () => {
            if (!this.stopped) this.failures += 1;
            resolve();
          });
          request.on("close", () => {
            this.open.delete(request);
            resolve();
          });
        });
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    };
    void connect();
  }

  stop(): void {
    this.stopped = true;
    for (const request of this.open) request.destroy();
    this.agent.destroy();
  }
}
