// The upstream budget (ADR 0026, ADR 0032): how many requests may go to the
// Clinic Data Service now, shared fairly by organizations and, through
// PostgreSQL or Redis, by every process. Its one entry: the client of the
// service (server/clinic/) takes budget with `acquire`, tells it what the
// service said (`readServiceLimit`, `learn`) and turns its refusals
// (`BudgetRefusal`) into its own errors; the app opens the shared log. It
// imports nothing of the client.

export { BudgetRefusal } from "./budget-refusal.ts";
export type { LimiterBudget } from "./fair-share-limiter.ts";
export { readServiceLimit } from "./service-limit-report.ts";
export { openSharedBudget } from "./shared-budget.ts";
export { createLimiter, limiterWindowMs, type LimiterOptions } from "./upstream-limiter.ts";
export { UserRequestQuota } from "./user-request-quota.ts";
