import { describe, expect, it } from "vitest";
import { createLogger } from "./logger.ts";

describe("logger redaction", () => {
  it("scrubs the configured secrets from every line, wherever they appear", () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "info", secrets: ["svc_dev_ak_5a0d1e2f3a4b5c6d7e8f90a1b2c3d4e5", "whsec_AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcY"], destination: { write: (line: string) => void lines.push(line) } });
    logger.info({ headers: { authorization: "Bearer svc_dev_ak_5a0d1e2f3a4b5c6d7e8f90a1b2c3d4e5" } }, "calling");
    logger.warn({ detail: "key=svc_dev_ak_5a0d1e2f3a4b5c6d7e8f90a1b2c3d4e5" }, "failed with whsec_AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcY");
    const all = lines.join("");
    expect(all).not.toContain("svc_dev_ak_5a0d");
    expect(all).not.toContain("whsec_AQID");
    expect(all).toContain("[redacted]");
  });
});
