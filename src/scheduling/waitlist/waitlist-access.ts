// Who uses the waitlist (issue 38): front-desk and scheduler roles, as the BFF
// allows GET/POST/PATCH/DELETE /api/waitlist and sends the `waitlist.*` live
// events; a clinical role sees none of it unless it also holds one of these.

export const WAITLIST_ROLES = ["Front Desk", "Scheduler"] as const;

export function canUseWaitlist(roles: readonly string[]): boolean {
  return roles.some((role) => (WAITLIST_ROLES as readonly string[]).includes(role));
}
