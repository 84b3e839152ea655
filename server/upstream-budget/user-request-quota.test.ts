import { describe, expect, it } from "vitest";
import { BudgetRefusal } from "./budget-refusal.ts";
import { UserRequestQuota } from "./user-request-quota.ts";

// ADR 0017: at most `limit` upstream requests per user in any window
// (sliding), refused (`user_quota`) with the wait. A hand-moved clock.

function quota(limit = 3, windowMs = 60_000) {
  const clock = { now: 0 };
  return { clock, subject: new UserRequestQuota({ limit, windowMs, now: () => clock.now }) };
}

const refusalOf = (action: () => unknown): BudgetRefusal => {
  try {
    action();
  } catch (error) {
    if (error instanceof BudgetRefusal) return error;
    throw error;
  }
  throw new Error("expected a refusal");
};

describe("UserRequestQuota", () => {
  it("lets a user send `limit` in a window, refuses the next (`user_quota`) with the seconds until the oldest leaves the window", () => {
    const { clock, subject } = quota();
    subject.take("org-a|alice");
    clock.now = 10_000;
    subject.take("org-a|alice");
    subject.take("org-a|alice");
    clock.now = 20_500;
    const refusal = refusalOf(() => subject.take("org-a|alice"));
    expect(refusal).toMatchObject({ code: "user_quota", retryAfterSeconds: 40 });
    expect(refusal.message).toBe("You have made more requests to the clinic's data service than Tandem allows one person (3 in 60 s); try again in 40 s");
    expect(subject.rejected()).toBe(1);
  });

  it("slides: a send leaves the window exactly windowMs after it was made", () => {
    const { clock, subject } = quota();
    for (const at of [0, 1, 2]) {
      clock.now = at;
      subject.take("u");
    }
    clock.now = 59_999;
    expect(() => subject.take("u")).toThrow(BudgetRefusal);
    clock.now = 60_000;
    expect(() => subject.take("u")).not.toThrow();
    expect(() => subject.take("u")).toThrow(BudgetRefusal);
  });

  it("counts each user on their own: another user of the same organization is not affected", () => {
    const { subject } = quota();
    for (let index = 0; index < 3; index += 1) subject.take("org-a|alice");
    expect(() => subject.take("org-a|alice")).toThrow(BudgetRefusal);
    expect(() => subject.take("org-a|bob")).not.toThrow();
  });

  it("a refund gives the request back, once", () => {
    const { subject } = quota();
    subject.take("u");
    const refund = subject.take("u");
    subject.take("u");
    refund();
    refund();
    expect(() => subject.take("u")).not.toThrow();
    expect(() => subject.take("u")).toThrow(BudgetRefusal);
  });
});
