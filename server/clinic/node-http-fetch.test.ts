import { createServer as createHttpServer } from "node:http";
import { createServer, type Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readBoundedBody } from "./bounded-body.ts";
import { nodeHttpFetch } from "./node-http-fetch.ts";

// A service that answers the first request of each connection and keeps it
// open, then resets the connection when the next request arrives on it: what
// a keep-alive connection closed as idle at the moment it is reused looks like.
async function serviceThatResetsReusedConnections() {
  const connections: Socket[] = [];
  let requests = 0;
  const server = createServer((socket) => {
    connections.push(socket);
    let answered = false;
    socket.on("data", () => {
      requests += 1;
      if (answered) {
        socket.resetAndDestroy();
        return;
      }
      answered = true;
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\nconnection: keep-alive\r\n\r\n{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return {
    url: `http://127.0.0.1:${address.port}`,
    connections: () => connections.length,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of connections) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let service: Awaited<ReturnType<typeof serviceThatResetsReusedConnections>> | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe("nodeHttpFetch: a reused keep-alive connection the service has closed", () => {
  it("sends a read or a DELETE once more on a new connection", async () => {
    service = await serviceThatResetsReusedConnections();
    expect((await nodeHttpFetch(`${service.url}/v1/facilities`)).status).toBe(200);
    expect((await nodeHttpFetch(`${service.url}/v1/facilities`)).status).toBe(200);
    expect((await nodeHttpFetch(`${service.url}/v4/schedule/holds/1`, { method: "DELETE" })).status).toBe(200);
    expect(service.connections()).toBeGreaterThanOrEqual(3);
  });

  it("does not send a POST twice: the reset reaches the caller", async () => {
    service = await serviceThatResetsReusedConnections();
    expect((await nodeHttpFetch(`${service.url}/v1/facilities`)).status).toBe(200);
    const requestsBefore = service.requests();
    await expect(nodeHttpFetch(`${service.url}/v2/tasks`, { method: "POST", body: "{}" })).rejects.toMatchObject({ code: "ECONNRESET" });
    expect(service.requests()).toBe(requestsBefore + 1);
  });
});

describe("nodeHttpFetch: an idle keep-alive connection", () => {
  it("is closed by the client before the service's Keep-Alive timeout, not left for the service to close under a request", async () => {
    let closedByClient = false;
    const sockets: Socket[] = [];
    const server = createServer((socket) => {
      sockets.push(socket);
      socket.on("data", () => socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\nconnection: keep-alive\r\nkeep-alive: timeout=2\r\n\r\n{"ok":true}'));
      // The service itself never closes it: only the client can.
      socket.on("end", () => {
        closedByClient = true;
        socket.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    try {
      expect((await nodeHttpFetch(`http://127.0.0.1:${address.port}/v1/facilities`)).status).toBe(200);
      // 2 s announced, closed 1 s before it (Node's buffer); without the agent's own timeout it stayed open for good.
      await vi.waitFor(() => expect(closedByClient).toBe(true), { timeout: 5_000, interval: 50 });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("nodeHttpFetch: the answer's body", () => {
  /** A service answering every request with `totalBytes` of body, written only as fast as the connection takes it; counts what it wrote. */
  async function serviceWithLargeAnswers(totalBytes: number) {
    let written = 0;
    let isClosedEarly = false;
    const server = createHttpServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (written < totalBytes) {
          written += chunk.byteLength;
          if (!response.write(chunk)) return;
        }
        response.end();
      };
      response.on("drain", pump);
      response.on("close", () => {
        if (written < totalBytes) isClosedEarly = true;
      });
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    return {
      url: `http://127.0.0.1:${address.port}`,
      written: () => written,
      isClosedEarly: () => isClosedEarly,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it("is read as it arrives: a reader that stops at its limit closes the connection, and the rest of a 64 MB answer is never sent", async () => {
    const large = await serviceWithLargeAnswers(64 * 1024 * 1024);
    try {
      const response = await nodeHttpFetch(`${large.url}/v2/schedule/slots`);
      expect(await readBoundedBody(response, 1024 * 1024)).toEqual({ kind: "too_large", maxBytes: 1024 * 1024 });
      await vi.waitFor(() => expect(large.isClosedEarly()).toBe(true), { timeout: 5_000, interval: 20 });
      // What the sockets' buffers took on the way (a few MB on loopback), not the answer.
      expect(large.written()).toBeLessThan(16 * 1024 * 1024);
    } finally {
      await large.close();
    }
  });

  it("fails with the signal's reason when the request is aborted while the body arrives (the client's timeout)", async () => {
    const stalled = createHttpServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"data":');
    });
    await new Promise<void>((resolve) => stalled.listen(0, "127.0.0.1", resolve));
    const address = stalled.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    try {
      const controller = new AbortController();
      const response = await nodeHttpFetch(`http://127.0.0.1:${address.port}/v1/facilities`, { signal: controller.signal });
      expect(response.status).toBe(200);
      const reading = response.text();
      controller.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError"));
      await expect(reading).rejects.toMatchObject({ name: "TimeoutError" });
    } finally {
      stalled.closeAllConnections();
      await new Promise<void>((resolve) => stalled.close(() => resolve()));
    }
  });
});
