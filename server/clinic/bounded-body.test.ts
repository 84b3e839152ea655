import { createServer as createHttpServer } from "node:http";
import { describe, expect, it, vi } from "vitest";
import { readBoundedBody } from "./bounded-body.ts";

// What the upstream client relies on from Node's fetch (its transport): an
// answer's body streams, so a read stopped at UPSTREAM_MAX_BODY_BYTES never
// takes in the rest, and the client's timeout fails a body still arriving.

describe("an upstream answer's body through fetch", () => {
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
      const response = await fetch(`${large.url}/v2/schedule/slots`);
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
      const response = await fetch(`http://127.0.0.1:${address.port}/v1/facilities`, { signal: controller.signal });
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
