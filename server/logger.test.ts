import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLogger, REPEATED_WARNING_WINDOW_MS } from "./logger.ts";

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

describe("repeated warnings", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const capture = () => {
    const lines: { msg: string; repeated?: number; traceId?: string; level: number }[] = [];
    const logger = createLogger({ level: "info", secrets: [], destination: { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) } });
    return { lines, logger };
  };

  it("writes the first of a burst of one warning, counts the rest, and says how many when the window closes", async () => {
    const { lines, logger } = capture();
    for (let n = 0; n < 2331; n += 1) logger.warn({ code: "rate_limited", traceId: `tdm_${n}` }, "upstream call failed");
    logger.warn({ route: "GET /v1/notes/{noteId}" }, "clinic: upstream contract violation");
    expect(lines.map((line) => line.msg)).toEqual(["upstream call failed", "clinic: upstream contract violation"]);
    expect(lines[0]?.traceId).toBe("tdm_0");
    await vi.advanceTimersByTimeAsync(REPEATED_WARNING_WINDOW_MS);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatchObject({ repeated: 2330, msg: "upstream call failed (repeated 2330 more times in 10 s)" });
    // A new window starts with a line again.
    logger.warn({ code: "rate_limited" }, "upstream call failed");
    expect(lines).toHaveLength(4);
  });

  it("never holds back errors or info lines", () => {
    const { lines, logger } = capture();
    for (let n = 0; n < 3; n += 1) {
      logger.error({ n }, "unexpected error");
      logger.info({ n }, "request");
    }
    expect(lines).toHaveLength(6);
  });
});
