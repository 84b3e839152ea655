// The fixed interface other code and tests call:
// `expandTemplate(template, window): AvailabilityInstance[]`, the one
// expansion of contract/ (DESIGN.md "Rules": time and recurrence), which
// runs under plain Node ESM as well as Vite.
export { expandTemplate } from "#contract/recurrence/expand-template.ts";
export type { AvailabilityInstance, AvailabilityTemplate } from "#contract/clinic-api/schedule.ts";
