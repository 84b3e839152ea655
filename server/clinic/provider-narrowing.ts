import type { AvailabilityTemplatesData } from "#contract/clinic-api/schedule.ts";
import { idKey } from "#contract/ids.ts";
import { encodeJson } from "./answer-intake.ts";
import { SharedAnswer, type ParseKeeping } from "./shared-answer.ts";
import type { ClinicCall } from "./upstream-request.ts";

// A bench-switched mechanism (bench-switches.ts "provider-narrowing", ADR
// 0023): an availability read narrowed to one provider of a facility is made
// from the facility's answer for the same window when the cache holds it
// fresh. Its templates and instances of that provider, with the same meta,
// are what the service answers for the narrowed query (both filters select
// rows by their own `facilityId` and `providerId`; filtering keeps the
// service's order). Without the facility's answer kept, the narrowed read
// goes to the service as asked.

export const NARROWED_ROUTE = "GET /v3/schedule/availability-templates";

type Availability = SharedAnswer<AvailabilityTemplatesData>;

/**
 * Narrowed answers made from a facility's answer, by provider: they live as
 * long as that answer (kept by the cache), and only for providers it lists,
 * so a caller cannot grow it with made-up ids.
 */
const narrowedByAnswer = new WeakMap<Availability, Map<string, Availability>>();

function narrowToProvider(facilityAnswer: Availability, providerId: string, keeping: ParseKeeping): Availability {
  const provider = idKey(providerId);
  const kept = narrowedByAnswer.get(facilityAnswer)?.get(provider);
  if (kept !== undefined) return kept;
  // A facility's week is 0.2-0.3 MB of JSON at a large group's scale: parsed for this narrowing only.
  const data = facilityAnswer.dataForOneUse();
  const templates = data.templates.filter((template) => idKey(template.providerId) === provider);
  const instances = data.instances.filter((instance) => idKey(instance.providerId) === provider);
  const answer = SharedAnswer.fromBytes<AvailabilityTemplatesData>(encodeJson(JSON.stringify({ templates, instances, meta: data.meta })), undefined, keeping);
  if (templates.length > 0) {
    let byProvider = narrowedByAnswer.get(facilityAnswer);
    if (byProvider === undefined) {
      byProvider = new Map();
      narrowedByAnswer.set(facilityAnswer, byProvider);
    }
    byProvider.set(provider, answer);
  }
  return answer;
}

/** The provider's availability made from the facility's kept answer (`cached` looks it up), or undefined when the call is not one provider of one facility or the facility's answer is not kept. */
export function narrowedFromFacility(call: ClinicCall, cached: (facilityCall: ClinicCall) => Availability | undefined, keeping: ParseKeeping): Availability | undefined {
  const query = call.query ?? {};
  const { facilityId, providerId, startDate, endDate } = query;
  if (typeof facilityId !== "string" || typeof providerId !== "string" || call.consistency === "strong") return undefined;
  const facilityAnswer = cached({ ...call, query: { facilityId, startDate, endDate } });
  return facilityAnswer === undefined ? undefined : narrowToProvider(facilityAnswer, providerId, keeping);
}
