import type { AvailabilityTemplatesQuery } from "#contract/clinic-api/queries.ts";
import type { AvailabilityTemplatesData } from "#contract/clinic-api/schedule.ts";
import { idKey } from "#contract/ids.ts";
import { encodeJson } from "../clinic/answer-intake.ts";
import { SharedAnswer, type ClinicClient } from "../clinic/clinic-client.ts";

// An availability read (seed 001 `GET /v3/schedule/availability-templates`)
// for the BFF's routes. A read narrowed to one provider of a facility is
// made from the facility's answer for the same window when the cache holds
// it fresh: its templates and instances of that provider, with the same
// meta, are what the service answers for the narrowed query (both filters
// select rows by their own `facilityId` and `providerId`; filtering keeps
// the service's order). Schedulers switch between a facility and its
// providers, so each provider's week would otherwise be a read of its own
// (ADR 0023). Without the facility's answer in the cache, the
// narrowed read goes to the service as asked.

const ROUTE = "GET /v3/schedule/availability-templates";

type Availability = SharedAnswer<AvailabilityTemplatesData>;

/**
 * Narrowed answers made from a facility's answer, by provider: they live as
 * long as that answer (kept by the cache), and only for providers it lists,
 * so a caller cannot grow it with made-up ids.
 */
const narrowedByAnswer = new WeakMap<Availability, Map<string, Availability>>();

function narrowToProvider(clinic: ClinicClient, facilityAnswer: Availability, providerId: string): Availability {
  const provider = idKey(providerId);
  const kept = narrowedByAnswer.get(facilityAnswer)?.get(provider);
  if (kept !== undefined) return kept;
  // A facility's week is 0.2-0.3 MB of JSON at a large group's scale: parsed for this narrowing only.
  const data = facilityAnswer.dataForOneUse();
  const templates = data.templates.filter((template) => idKey(template.providerId) === provider);
  const instances = data.instances.filter((instance) => idKey(instance.providerId) === provider);
  const answer = SharedAnswer.fromBytes<AvailabilityTemplatesData>(encodeJson(JSON.stringify({ templates, instances, meta: data.meta })), undefined, clinic.switches.parseKeeping);
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

/** The availability of `query` for the organization, as `clinic.requestShared` answers it, from the facility's cached answer where it can. */
export async function readAvailability(clinic: ClinicClient, organizationId: string, query: AvailabilityTemplatesQuery): Promise<Availability> {
  const { facilityId, providerId, startDate, endDate } = query;
  if (facilityId !== undefined && providerId !== undefined && clinic.switches.isOn("provider-narrowing")) {
    const facilityAnswer = clinic.cachedShared(ROUTE, { organizationId, query: { facilityId, startDate, endDate } });
    if (facilityAnswer !== undefined) {
      clinic.switches.used("provider-narrowing");
      return narrowToProvider(clinic, facilityAnswer, providerId);
    }
  }
  return clinic.requestShared(ROUTE, { organizationId, query });
}
