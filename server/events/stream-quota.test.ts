import { describe, expect, it } from "vitest";
import { StreamQuota } from "./stream-quota.ts";

const owner = (overrides: Partial<{ organizationId: string; userId: string; jti: string }> = {}) => ({ organizationId: "org-a", userId: "user-1", jti: "jti-1", ...overrides });

describe("live-event stream quota", () => {
  it("caps streams per token, per user and per organization, and frees a place on release (once)", () => {
    const quota = new StreamQuota({ perToken: 2, perUser: 3, perOrganization: 4 });
    const first = quota.tryOpen(owner());
    expect(first.admitted).toBe(true);
    expect(quota.tryOpen(owner()).admitted).toBe(true);
    expect(quota.tryOpen(owner())).toEqual({ admitted: false, scope: "perToken" });
    // Another token of the same user: the user's third, then the user is full.
    expect(quota.tryOpen(owner({ jti: "jti-2" })).admitted).toBe(true);
    expect(quota.tryOpen(owner({ jti: "jti-3" }))).toEqual({ admitted: false, scope: "perUser" });
    // Another user of the organization: its fourth, then the organization is full.
    expect(quota.tryOpen(owner({ userId: "user-2", jti: "jti-4" })).admitted).toBe(true);
    expect(quota.tryOpen(owner({ userId: "user-3", jti: "jti-5" }))).toEqual({ admitted: false, scope: "perOrganization" });
    expect(quota.tryOpen(owner({ organizationId: "org-b", jti: "jti-b" })).admitted).toBe(true);
    if (!first.admitted) throw new Error("unreachable");
    first.release();
    first.release();
    expect(quota.tryOpen(owner({ userId: "user-3", jti: "jti-5" })).admitted).toBe(true);
    expect(quota.tryOpen(owner({ userId: "user-4", jti: "jti-6" }))).toEqual({ admitted: false, scope: "perOrganization" });
  });

  it("counts a standalone session's streams per user (it has no token id)", () => {
    const quota = new StreamQuota({ perToken: 1, perUser: 2, perOrganization: 10 });
    expect(quota.tryOpen(owner({ jti: "" })).admitted).toBe(true);
    expect(quota.tryOpen(owner({ jti: "" })).admitted).toBe(true);
    expect(quota.tryOpen(owner({ jti: "" }))).toEqual({ admitted: false, scope: "perUser" });
  });
});
