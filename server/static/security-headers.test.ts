import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { securityHeaders } from "./security-headers.ts";

const appAt = (publicUrl: string) => {
  const app = new Hono();
  app.use(securityHeaders({ allowedHostOrigins: ["https://ehr.example"], avatarOrigins: [], publicUrl }));
  app.get("/", (c) => c.text("ok"));
  return app;
};

describe("security headers", () => {
  it("asks browsers for TLS only (HSTS) when the app is served over TLS, and not on plain http (the sandbox)", async () => {
    expect((await appAt("https://tandem.example").request("/")).headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect((await appAt("http://localhost:8787").request("/")).headers.get("strict-transport-security")).toBeNull();
  });
});
