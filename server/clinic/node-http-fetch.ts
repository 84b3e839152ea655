import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

// The upstream client's default transport: `fetch`'s shape over node:http
// with keep-alive agents. Measured here, a call through the global fetch
// (undici) cost about 0.7 ms against 0.5 ms through node:http, on every
// proxied read (bench/bff-bench.ts). Only what the client uses is supported:
// string or URL input, method, headers, a string body, an abort signal. The
// answer's body is a stream, read no faster than the caller reads it
// (bounded-body.ts stops reading a body past its limit).

/**
 * How long an idle connection is kept for reuse, at most. Node's agent closes
 * an idle connection 1 s before the service's `Keep-Alive: timeout=` only
 * when the agent has a timeout of its own; without one it kept idle
 * connections until the service closed them, and a request sent in the
 * moment before the client saw the close was reset: a POST is never sent
 * twice (below), so a user would get a 503 on a hold. That is the likely
 * cause of one such 503 under the 1,000-user load (docs/deploy.md). The
 * service's hint, when shorter, still wins. A request in progress is not
 * cut by this timeout; its own abort signal bounds it.
 */
const IDLE_CONNECTION_TIMEOUT_MS = 10_000;

const agentOptions = { keepAlive: true, maxSockets: 64, timeout: IDLE_CONNECTION_TIMEOUT_MS };
const httpAgent = new HttpAgent(agentOptions);
const httpsAgent = new HttpsAgent(agentOptions);

/**
 * A keep-alive connection the service closed as idle just as it was reused
 * resets before any answer: the service never read the request, so it is
 * sent once more on a new connection (as browsers do), for the methods where
 * even a duplicate would be harmless: reads, and the service's DELETEs (a
 * released hold releases again, seed 000; a deleted image answers 404, "no
 * longer on this note"). Seen under the load benchmark as a user's release
 * failing with a 503.
 */
const RESENDABLE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "DELETE"]);

function headersOf(message: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/** What is read ahead of the caller before the socket is paused. */
const READ_AHEAD_BYTES = 64 * 1024;

/**
 * The answer's body as it arrives. Cancelling it (a body past the reader's
 * limit) destroys the connection: the rest is never read. A request aborted
 * after its answer began (the client's timeout) fails the body with the
 * signal's reason, as `fetch` does.
 */
function bodyOf(message: IncomingMessage, signal: AbortSignal | null | undefined): ReadableStream<Uint8Array> {
  let isSettled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        message.on("data", (chunk: Buffer) => {
          if (isSettled) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) message.pause();
        });
        message.on("end", () => {
          if (isSettled) return;
          isSettled = true;
          controller.close();
        });
        message.on("error", (error) => {
          if (isSettled) return;
          isSettled = true;
          controller.error(signal?.aborted && signal.reason instanceof Error ? signal.reason : error);
        });
      },
      pull() {
        message.resume();
      },
      cancel() {
        isSettled = true;
        message.destroy();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: READ_AHEAD_BYTES }),
  );
}

export interface NodeHttpFetchOptions {
  /** Send a read once more after a reused connection's reset (RESENDABLE_METHODS); default true (bench-switches.ts "transport-retry"). */
  resendOnReset?: boolean;
  /** Told of each request sent, and of each resend. */
  onRequest?: () => void;
  onResend?: () => void;
}

export function createNodeHttpFetch(options: NodeHttpFetchOptions = {}): typeof fetch {
  const resendOnReset = options.resendOnReset ?? true;
  return (input, init) => {
    options.onRequest?.();
    return sendRequest(input, init, resendOnReset, options.onResend);
  };
}

export const nodeHttpFetch: typeof fetch = createNodeHttpFetch();

function sendRequest(input: Parameters<typeof fetch>[0], init: RequestInit | undefined, resendOnReset: boolean, onResend: (() => void) | undefined): Promise<Response> {
  const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
  const isHttps = url.protocol === "https:";
  const headers: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, name) => {
    headers[name] = value;
  });
  const body = typeof init?.body === "string" ? init.body : undefined;
  if (init?.body !== undefined && init.body !== null && body === undefined) return Promise.reject(new TypeError("nodeHttpFetch sends string bodies only"));
  if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
  const method = init?.method ?? "GET";
  return new Promise<Response>((resolve, reject) => {
    const send = (isResend: boolean) => {
      const request = (isHttps ? httpsRequest : httpRequest)(url, { method, headers, agent: isHttps ? httpsAgent : httpAgent, signal: init?.signal ?? undefined }, (message) => {
        const status = message.statusCode ?? 502;
        const hasBody = status !== 204 && status !== 304;
        // Read to its (empty) end, so the connection is free for the next request.
        if (!hasBody) message.resume();
        resolve(new Response(hasBody ? bodyOf(message, init?.signal) : null, { status, statusText: message.statusMessage, headers: headersOf(message) }));
      });
      request.on("error", (error: NodeJS.ErrnoException) => {
        if (resendOnReset && !isResend && request.reusedSocket && error.code === "ECONNRESET" && RESENDABLE_METHODS.has(method)) {
          onResend?.();
          send(true);
        } else reject(error.name === "AbortError" && init?.signal?.reason instanceof Error ? init.signal.reason : error);
      });
      if (body !== undefined) request.write(body);
      request.end();
    };
    send(false);
  });
}
