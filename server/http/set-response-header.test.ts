import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { setResponseHeader } from "./set-response-header.ts";

describe("setResponseHeader", () => {
  const app = new Hono();
  app.use(async (c, next) => {
    await next();
    setResponseHeader(c, "X-Set-After", "yes");
  });
  app.get("/json", (c) => c.json({ ok: true }, 200, { "X-Own": "kept" }));
  // Response.redirect's headers are immutable: the header still lands, on a copy.
  app.get("/redirect", () => Response.redirect("https://tandem.example/elsewhere", 302));

  it("adds a header to an answered response, keeping its body, status and own headers", async () => {
    const response = await app.request("/json");
    expect(response.status).toBe(200);
    expect(response.headers.get("X-Set-After")).toBe("yes");
    expect(response.headers.get("X-Own")).toBe("kept");
    expect(await response.json()).toEqual({ ok: true });
  });

  it("adds it to a response whose headers are immutable too", async () => {
    const response = await app.request("/redirect");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("https://tandem.example/elsewhere");
    expect(response.headers.get("X-Set-After")).toBe("yes");
  });
});
