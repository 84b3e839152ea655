import { describe, expect, it } from "vitest";
import { formatCountdown, holdAnnouncement, holdDeadlineMs, holdStage } from "./hold-countdown.ts";

describe("the hold countdown", () => {
  it("shows mm:ss, rounding up, never below zero", () => {
    expect(formatCountdown(300_000)).toBe("05:00");
    expect(formatCountdown(299_001)).toBe("05:00");
    expect(formatCountdown(299_000)).toBe("04:59");
    expect(formatCountdown(61_000)).toBe("01:01");
    expect(formatCountdown(500)).toBe("00:01");
    expect(formatCountdown(0)).toBe("00:00");
    expect(formatCountdown(-5_000)).toBe("00:00");
    expect(formatCountdown(75 * 60_000)).toBe("75:00");
  });

  it("announces the hold, then only at one minute left and at expiry", () => {
    const said = [300_000, 120_000, 60_001, 60_000, 30_000, 1_000, 0, -1_000].map((ms) => holdAnnouncement(holdStage(ms), "10:00 EST with Dr Brooks"));
    expect([...new Set(said)]).toEqual(["Held: 10:00 EST with Dr Brooks. Book it in the EHR before the hold runs out.", "Less than one minute left on the hold for 10:00 EST with Dr Brooks.", "The hold for 10:00 EST with Dr Brooks has expired."]);
  });

  it("counts the hold's lifetime from when the request was sent when the service says when it made the hold", () => {
    // The service's clock runs 4.5 minutes behind this browser's.
    const hold = { expiresAt: "2026-12-01T15:05:00.000Z", createdAt: "2026-12-01T15:00:00.000Z" };
    const sentAt = Date.parse("2026-12-01T15:04:30.000Z");
    expect(holdDeadlineMs(hold, sentAt)).toBe(sentAt + 300_000);
    expect(holdDeadlineMs({ expiresAt: hold.expiresAt }, sentAt)).toBe(Date.parse(hold.expiresAt));
    expect(holdDeadlineMs({ expiresAt: hold.expiresAt, createdAt: "later" }, sentAt)).toBe(Date.parse(hold.expiresAt));
  });
});
