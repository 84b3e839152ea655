import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// A real HTTP proxy between the BFF and the service, for faults that only a
// network can make (issue 35 item 4): the service receives the request and
// acts on it, and then the BFF never gets the answer. `reset` destroys the
// BFF's connection once the service has answered (ECONNRESET at the BFF);
// `silence` keeps the connection open and never answers (the BFF's timeout).
// Requests no rule matches pass through unchanged.

export type FaultProxyMode = "reset" | "silence";

export interface FaultProxyRule {
  method: string;
  /** Matched against the path without its query. */
  path: RegExp;
  mode: FaultProxyMode;
  /** How many matching requests the rule hits before it is gone; every one when left out. */
  count?: number;
}

export interface FaultProxy {
  /** The proxy's base URL, for the BFF's CLINIC_API_BASE_URL. */
  url: string;
  add(rule: FaultProxyRule): void;
  clear(): void;
  /** Every request the proxy let reach the service and then cut off: "METHOD path status". */
  readonly cutOff: string[];
  close(): Promise<void>;
}

interface ActiveRule extends FaultProxyRule {
  remaining: number;
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => resolve(Buffer.concat(chunks)));
    stream.on("error", reject);
  });
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const targetUrl = new URL(target);
  let rules: ActiveRule[] = [];
  const cutOff: string[] = [];
  const silenced = new Set<ServerResponse>();

  const takeRule = (method: string, path: string): ActiveRule | undefined => {
    const rule = rules.find((candidate) => candidate.method === method && candidate.path.test(path) && candidate.remaining > 0);
    if (rule) rule.remaining -= 1;
    return rule;
  };

  const server: Server = createServer((incoming, outgoing) => {
    void (async () => {
      const body = await readAll(incoming);
      const path = (incoming.url ?? "/").split("?")[0] ?? "/";
      const method = incoming.method ?? "GET";
      const rule = takeRule(method, path);
      const upstream = httpRequest({ host: targetUrl.hostname, port: targetUrl.port, method, path: incoming.url, headers: { ...incoming.headers, host: targetUrl.host } });
      upstream.on("error", () => incoming.socket.destroy());
      upstream.on("response", (answer) => {
        void readAll(answer).then((answerBody) => {
          if (rule) {
            cutOff.push(`${method} ${path} ${answer.statusCode ?? 0}`);
            if (rule.mode === "reset") incoming.socket.destroy();
            else silenced.add(outgoing);
            return;
          }
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          outgoing.end(answerBody);
        }, () => incoming.socket.destroy());
      });
      upstream.end(body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    add(rule) {
      rules.push({ ...rule, method: rule.method.toUpperCase(), remaining: rule.count ?? Number.POSITIVE_INFINITY });
    },
    clear() {
      rules = [];
    },
    cutOff,
    async close() {
      for (const response of silenced) response.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
