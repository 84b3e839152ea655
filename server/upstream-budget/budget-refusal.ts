// The budget's answer when a send may not go. It knows no HTTP: the client of
// the service turns it into its own error, with the status its callers get.

export class BudgetRefusal extends Error {
  override readonly name = "BudgetRefusal";

  constructor(
    /** `rate_limited`: no room in the budget in time; `user_quota`: the user's own quota is used up; `closed`: the budget was closed. */
    readonly code: "rate_limited" | "user_quota" | "closed",
    message: string,
    /** Whole seconds, at least 1, until a send likely may go; none when closed. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
