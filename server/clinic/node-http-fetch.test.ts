import { createServer, type Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
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
